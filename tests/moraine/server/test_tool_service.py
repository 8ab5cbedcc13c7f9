"""ToolService: every outcome is a schema-valid envelope; failures map to their codes; bad responses never leave."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import anyio
import pytest

from generated.models import ListSessionsData, SearchSessionsData
from generated.tools import TOOLS
from generated.validators import VALIDATORS
from handlers import Deps, HandlerEntry, Outcome, Settings, load_handlers
from moraine.errors import NotFoundError, ReadModelRefreshError, ResourceExhaustedError, StoreError
from moraine.ids import session_id
from moraine.server.service import ToolReply, ToolService
from moraine.store.client import Store

Handle = Callable[[Any, Deps], Outcome]


def _empty_search(request: Any, deps: Deps) -> Outcome:
    return Outcome(
        SearchSessionsData(result_count=0, limit=request.n_hits, truncated=False, results=[]), ["backfill"]
    )


def _service(store: Store, **overrides: Handle) -> ToolService:
    def refuse(request: Any, deps: Deps) -> Outcome:
        raise AssertionError("this handler should not be reached")

    table = {
        name: HandlerEntry(entry.parse, entry.data_model, overrides.get(name, refuse))
        for name, entry in load_handlers().items()
    }
    return ToolService(Deps(store=store, settings=Settings(cursor_secret=b"s" * 32)), table)


def _call(service: ToolService, tool: str, arguments: Any) -> ToolReply:
    async def run() -> ToolReply:
        return await service.call(tool, arguments)

    return anyio.run(run)


def _assert_valid(reply: ToolReply) -> None:
    tool = reply.envelope["tool"]
    VALIDATORS[TOOLS[tool].output_validator](reply.envelope)


def test_success_envelope_carries_canonical_request_data_warnings_and_elapsed_ms(store: Store) -> None:
    reply = _call(
        _service(store, search_sessions=_empty_search), "search_sessions", {"query": " q ", "n_hits": 3}
    )
    _assert_valid(reply)
    assert reply.is_error is False
    assert reply.envelope["request"]["query"] == "q"
    assert reply.envelope["data"] == {"result_count": 0, "limit": 3, "truncated": False, "results": []}
    assert reply.envelope["warnings"] == ["backfill"]
    assert isinstance(reply.envelope["performance"]["elapsed_ms"], int)


def test_handler_runs_off_the_event_loop_thread(store: Store) -> None:
    seen: list[str] = []

    def record(request: Any, deps: Deps) -> Outcome:
        seen.append(threading.current_thread().name)
        return _empty_search(request, deps)

    _call(_service(store, search_sessions=record), "search_sessions", {"query": "q"})
    assert seen and seen[0] != threading.main_thread().name


def test_response_failing_its_schema_becomes_internal_error_and_is_not_sent(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    def over_limit(request: Any, deps: Deps) -> Outcome:
        data = ListSessionsData.model_construct(
            result_count=-1, limit=request.limit, truncated=False, sessions=[], next_cursor=None
        )
        return Outcome(data)

    rng = {"start_datetime": "2026-01-01T00:00:00Z", "end_datetime": "2026-01-02T00:00:00Z"}
    with caplog.at_level(logging.ERROR, logger="moraine.server"):
        reply = _call(_service(store, list_sessions=over_limit), "list_sessions", rng)
    _assert_valid(reply)
    assert reply.is_error is True
    assert reply.envelope["error"]["code"] == "internal_error"
    assert reply.envelope["error"]["details"] == {"reason": "invalid_response"}
    assert "data" not in reply.envelope and "-1" not in str(reply.envelope)
    assert any("invalid list_sessions response" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(
    ("exc", "code"),
    [
        (NotFoundError("session not found", id=session_id(9), kind="session"), "not_found"),
        (StoreError("ClickHouse unavailable: connection refused"), "backend_failure"),
        (ResourceExhaustedError("ClickHouse limit reached: memory"), "resource_exhausted"),
        (ReadModelRefreshError(retry_after_ms=250), "internal_error"),
    ],
)
def test_moraine_errors_keep_their_code_message_and_details(store: Store, exc: Exception, code: str) -> None:
    def fail(request: Any, deps: Deps) -> Outcome:
        raise exc

    reply = _call(_service(store, open=fail), "open", {"id": session_id(9)})
    _assert_valid(reply)
    assert reply.is_error is True
    assert reply.envelope["request"] == {"id": session_id(9)}
    assert reply.envelope["error"]["code"] == code
    assert reply.envelope["error"]["message"] == str(exc)
    if isinstance(exc, ReadModelRefreshError):
        assert reply.envelope["error"]["details"] == {
            "reason": "read_model_refresh",
            "retryable": True,
            "retry_after_ms": 250,
        }


def test_unexpected_exception_is_a_concise_logged_internal_error(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    def crash(request: Any, deps: Deps) -> Outcome:
        raise KeyError("secret internals")

    with caplog.at_level(logging.ERROR, logger="moraine.server"):
        reply = _call(_service(store, search_sessions=crash), "search_sessions", {"query": "q"})
    _assert_valid(reply)
    assert reply.envelope["error"]["code"] == "internal_error"
    assert "secret internals" not in reply.envelope["error"]["message"]
    assert "KeyError" in reply.envelope["error"]["message"]
    assert any(r.exc_info for r in caplog.records)


def test_unknown_tool_is_an_in_band_invalid_request(store: Store) -> None:
    reply = _call(_service(store), "no_such_tool", {"a": 1})
    assert reply.is_error is True
    VALIDATORS["error_envelope"](reply.envelope)
    assert reply.envelope["error"]["code"] == "invalid_request"
    assert "search_sessions" in reply.envelope["error"]["message"]


def test_service_requires_exactly_the_spec_tools(store: Store) -> None:
    table = {
        "search_sessions": HandlerEntry(
            load_handlers()["search_sessions"].parse, SearchSessionsData, _empty_search
        )
    }
    with pytest.raises(ValueError, match="exactly the spec tools"):
        ToolService(Deps(store=store, settings=Settings()), table)
