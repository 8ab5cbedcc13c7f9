"""The fuzz harness catches what it exists to catch: patched copies of the service with a planted crash, a planted
schema violation in a handler, and a planted malformed envelope past the service's safety net all make it fail."""

from __future__ import annotations

import traceback
from dataclasses import replace
from typing import Any

import pytest
import schemathesis
from harness import fuzz_operation
from hypothesis.errors import HypothesisException
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.schemas import OpenApiSchema

from generated.models import SearchSessionsData
from handlers import Deps, HandlerEntry, Outcome
from moraine.server.http_app import build_facade_app
from moraine.server.service import ToolReply, ToolService

CASES = 30


def _schema(service: ToolService) -> OpenApiSchema:
    return schemathesis.openapi.from_asgi("/openapi.json", build_facade_app(service))


def _with_handler(service: ToolService, tool: str, handle: Any) -> ToolService:
    handlers: dict[str, HandlerEntry] = dict(service.handlers)
    handlers[tool] = replace(handlers[tool], handle=handle)
    return ToolService(service.deps, handlers)


def _fuzz_failure(service: ToolService, tool: str) -> str:
    with pytest.raises((AssertionError, HypothesisException, FailureGroup)) as failure:
        fuzz_operation(_schema(service), tool, CASES, seed_value=8, shrink=False)
    return "".join(traceback.format_exception(failure.value))


def test_an_unpatched_service_passes_the_same_short_run(fuzz_service: ToolService) -> None:
    tally = fuzz_operation(_schema(fuzz_service), "search_sessions", CASES, seed_value=8)
    assert tally.cases("search_sessions:positive") >= CASES


def test_a_handler_that_crashes_fails_the_fuzz_run(fuzz_service: ToolService) -> None:
    def crash(request: Any, deps: Deps) -> Outcome:
        raise ZeroDivisionError("planted crash")

    message = _fuzz_failure(_with_handler(fuzz_service, "search_sessions", crash), "search_sessions")
    assert "internal_error" in message


def test_a_handler_that_breaks_its_schema_fails_the_fuzz_run(fuzz_service: ToolService) -> None:
    def violate(request: Any, deps: Deps) -> Outcome:
        bad = SearchSessionsData.model_construct(result_count=-1, limit=0, truncated=False, results=[])
        return Outcome(bad)

    message = _fuzz_failure(_with_handler(fuzz_service, "search_sessions", violate), "search_sessions")
    assert "internal_error" in message and "does not match its schema" in message


class _MalformedEnvelopes(ToolService):
    """A service whose success envelopes lose their required ``warnings`` on the way out."""

    async def call(self, tool: str, arguments: Any, *args: Any, **kwargs: Any) -> ToolReply:
        reply = await super().call(tool, arguments, *args, **kwargs)
        if not reply.is_error:
            reply.envelope.pop("warnings", None)
        return reply


def test_an_envelope_that_breaks_the_openapi_schema_fails_the_fuzz_run(fuzz_service: ToolService) -> None:
    broken = _MalformedEnvelopes(fuzz_service.deps, fuzz_service.handlers)
    message = _fuzz_failure(broken, "list_sessions")
    assert "Response violates schema" in message and "ST108" in message
