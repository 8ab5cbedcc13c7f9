"""Answer one tool call, whatever the transport: check -> handler (off the event loop) -> envelope -> validate."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import anyio

from generated.tools import ERROR_VALIDATOR, TOOLS
from generated.validators import VALIDATORS, JsonSchemaValueException
from moraine.handler_api import Deps, HandlerEntry, data_json
from moraine.errors import MoraineError, RequestError
from moraine.in_flight import running_call
from moraine.store.reads.floor import ProjectFloor
from moraine.server.envelope import error_envelope, success_envelope
from moraine.server.failures import ErrorBody, error_body
from moraine.server.requests import CheckedRequest, check_request

__all__ = ["CallRunner", "ToolCall", "ToolReply", "ToolService"]

logger = logging.getLogger("moraine.server")
_INVALID_RESPONSE = (
    "Moraine built a {tool} response that does not match its schema; the server log has the details"
)


@dataclass(frozen=True, slots=True)
class ToolReply:
    """A finished tool call: the envelope to send and whether it is an error."""

    envelope: dict[str, Any]
    is_error: bool


# One tool call as a command or exporter makes it: (tool, arguments) -> the reply, whoever answers it (a
# ToolService in this process, or the daemon over its socket).
ToolCall = Callable[[str, dict[str, Any]], Awaitable[ToolReply]]


def _elapsed_ms(started: float) -> int:
    return max(0, round((time.perf_counter() - started) * 1000))


# Runs a checked call's work (a blocking function of the deps) and returns its reply; the daemon's runner adds
# admission (raising BusyError) and cancellation. May raise MoraineError: it becomes the call's error envelope.
CallRunner = Callable[[Callable[[Deps], ToolReply], Deps], Awaitable[ToolReply]]


async def _in_thread(work: Callable[[Deps], ToolReply], deps: Deps) -> ToolReply:
    """Run ``work`` off the event loop."""
    return await anyio.to_thread.run_sync(work, deps)


class ToolService:
    """The four tools behind one ``call``: every outcome is a schema-valid envelope."""

    def __init__(
        self, deps: Deps, handlers: Mapping[str, HandlerEntry], runner: CallRunner | None = None
    ) -> None:
        if set(handlers) != set(TOOLS):
            raise ValueError(
                f"handlers must cover exactly the spec tools {sorted(TOOLS)}, got {sorted(handlers)}"
            )
        self.deps = deps
        self.handlers = dict(handlers)
        self.runner: CallRunner = runner or _in_thread

    async def call(
        self, tool: str, arguments: Any, launch_dir: Path | None = None, floor: ProjectFloor | None = None
    ) -> ToolReply:
        """Answer ``tool(arguments)`` with a success or error envelope (never raises for tool-level failures).

        ``launch_dir`` overrides ``deps.launch_dir`` for this call (a relay passes its client's directory);
        ``floor`` sets a project-only client's scope for this call.
        """
        started = time.perf_counter()
        request: dict[str, Any] = dict(arguments) if isinstance(arguments, Mapping) else {}
        if tool not in self.handlers:
            error = RequestError(
                f"unknown tool {tool!r}; available tools: {', '.join(sorted(TOOLS))}", field="name"
            )
            return self._error(tool, request, error_body(error, tool), [], started)
        try:
            checked = check_request(tool, arguments, self.handlers[tool].parse, self.deps.settings)
        except MoraineError as exc:
            return self._error(tool, request, error_body(exc, tool), [], started)
        try:
            deps = self.deps if launch_dir is None else replace(self.deps, launch_dir=launch_dir)
            if floor is not None:
                deps = replace(deps, floor=floor)
            return await self.runner(partial(self._answer, tool, checked, started), deps)
        except Exception as exc:  # the outer boundary: any failure becomes an internal_error envelope
            return self._error(tool, checked.canonical, error_body(exc, tool), [], started)

    def _answer(self, tool: str, checked: CheckedRequest, started: float, deps: Deps) -> ToolReply:
        entry = self.handlers[tool]
        try:
            with running_call():  # background work (the vectorizer's embedder) stands aside meanwhile
                outcome = entry.handle(checked.parsed, deps)
            data = data_json(outcome.data)
        except MoraineError as exc:
            return self._error(tool, checked.canonical, error_body(exc, tool), [], started)
        envelope = success_envelope(tool, checked.canonical, data, outcome.warnings, _elapsed_ms(started))
        try:
            VALIDATORS[TOOLS[tool].response_validator](envelope)
        except JsonSchemaValueException as exc:
            logger.error("invalid %s response (%s): %s", tool, exc.message, str(envelope)[:2000])
            body = ErrorBody(
                "internal_error", _INVALID_RESPONSE.format(tool=tool), {"reason": "invalid_response"}
            )
            return self._error(tool, checked.canonical, body, outcome.warnings, started)
        return ToolReply(envelope, is_error=False)

    def _error(
        self, tool: str, request: dict[str, Any], body: ErrorBody, warnings: list[str], started: float
    ) -> ToolReply:
        envelope = error_envelope(tool, request, body, warnings, _elapsed_ms(started))
        try:
            VALIDATORS[ERROR_VALIDATOR](envelope)
        except JsonSchemaValueException as exc:  # e.g. a non-string warning: send the bare error instead
            logger.error("invalid error envelope for %s (%s)", tool, exc.message)
            envelope = error_envelope(tool, {}, ErrorBody(body.code, body.message or body.code, {}), [], 0)
        return ToolReply(envelope, is_error=True)
