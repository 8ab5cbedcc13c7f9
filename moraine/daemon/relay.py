"""The stdio MCP server agents launch (``moraine mcp``): lists the tools itself, forwards every call to the daemon.

Each call carries this process's launch directory, so ``file_attention`` resolves relative paths from the agent's
directory (and, for ``--project-only``, asks for that directory's project floor; the instructions name it).
A client's ``notifications/cancelled`` cancels the forwarding request; the daemon sees the disconnect
and stops the work. A clean EOF on stdin is a half-close: calls already received still finish and are answered.
If the daemon goes away, the next call starts or finds it again and is retried once (the tools are read-only).
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from anyio.abc import ObjectReceiveStream, ObjectSendStream
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from generated.descriptors import DESCRIPTORS, SERVER
from moraine.daemon.client import DaemonConnection, DaemonUnreachable
from moraine.daemon.launcher import DaemonStartError, ensure_daemon
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.version import moraine_version
from moraine.store.reads.floor import ProjectFloor
from moraine.server.envelope import error_envelope
from moraine.server.failures import ErrorBody
from moraine.server.mcp_app import tool_result
from moraine.server.service import ToolReply

__all__ = ["run_relay"]

logger = logging.getLogger("moraine.relay")
_UNANSWERED_GRACE_SECONDS = 5.0


class _Calls:
    """Counts tool calls received, started and finished, so EOF can wait for the admitted ones."""

    def __init__(self) -> None:
        self.received = 0
        self.started = 0
        self.finished = 0
        self._changed = anyio.Event()

    def changed(self) -> None:
        self._changed.set()
        self._changed = anyio.Event()

    async def drained(self) -> None:
        """Return once every received call has finished (calls the SDK never started get a short grace)."""
        grace_until: float | None = None
        while self.finished < self.started or self.started < self.received:
            if self.finished == self.started:
                grace_until = grace_until or time.monotonic() + _UNANSWERED_GRACE_SECONDS
                if time.monotonic() >= grace_until:
                    return
            with anyio.move_on_after(0.5):
                await self._changed.wait()


class _Relay:
    def __init__(
        self,
        paths: DaemonPaths,
        start_timeout: float,
        config_path: Path | None,
        floor: ProjectFloor | None = None,
    ) -> None:
        self.paths = paths
        self.start_timeout = start_timeout
        self.config_path = config_path
        self.floor = floor
        self.connection = DaemonConnection(paths.socket, project_only=floor is not None)
        self.calls = _Calls()
        self._reconnected = anyio.Event()

    async def connect(self) -> None:
        """Find or start the daemon.

        Raises:
            DaemonStartError: it could not be started (the message quotes its log).
        """
        await anyio.to_thread.run_sync(ensure_daemon, self.paths, self.start_timeout, self.config_path)
        self._reconnected.set()

    async def forward(self, tool: str, arguments: Any) -> ToolReply:
        started = time.perf_counter()
        try:
            envelope, is_error = await self.connection.call(tool, arguments)
        except DaemonUnreachable:
            try:
                await self.connect()
                envelope, is_error = await self.connection.call(tool, arguments)
            except (DaemonStartError, DaemonUnreachable) as exc:
                return _backend_failure(tool, arguments, str(exc), started)
        return ToolReply(envelope, is_error)

    async def stay_attached(self) -> None:
        """Keep an attach stream open to the daemon, re-attaching after each reconnect."""
        while True:
            await self._reconnected.wait()
            self._reconnected = anyio.Event()
            await self.connection.attach()


def _backend_failure(tool: str, arguments: Any, message: str, started: float) -> ToolReply:
    request = dict(arguments) if isinstance(arguments, dict) else {}
    body = ErrorBody("backend_failure", f"the Moraine daemon is unavailable: {message}", {"retryable": True})
    elapsed = max(0, round((time.perf_counter() - started) * 1000))
    return ToolReply(error_envelope(tool, request, body, [], elapsed), is_error=True)


def _server(relay: _Relay) -> Server[Any]:
    tools = [types.Tool.model_validate(descriptor) for descriptor in DESCRIPTORS.values()]

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        relay.calls.started += 1
        try:
            reply = await relay.forward(params.name, params.arguments if params.arguments is not None else {})
        finally:
            relay.calls.finished += 1
            relay.calls.changed()
        return tool_result(reply)

    return Server(
        SERVER["name"],
        version=moraine_version(),
        title=SERVER["title"],
        instructions=_instructions(relay.floor),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _instructions(floor: ProjectFloor | None) -> str:
    """Return the server instructions; a project-only server says which roots are visible."""
    base = str(SERVER["instructions"])
    return base if floor is None else f"{base}\n\n{floor.describe()}"


async def _half_close(
    source: ObjectReceiveStream[SessionMessage | Exception],
    sink: ObjectSendStream[SessionMessage | Exception],
    calls: _Calls,
) -> None:
    """Pass client messages on; at EOF keep the server's input open until the received calls are answered."""
    async with sink:
        async for item in source:
            if isinstance(item, SessionMessage) and isinstance(item.message, types.JSONRPCRequest):
                if item.message.method == "tools/call":
                    calls.received += 1
            await sink.send(item)
        await calls.drained()


async def _relay_main(
    paths: DaemonPaths, start_timeout: float, config_path: Path | None, floor: ProjectFloor | None
) -> None:
    relay = _Relay(paths, start_timeout, config_path, floor)
    try:
        await relay.connect()
    except DaemonStartError as exc:  # keep serving: each call retries and reports why it failed
        print(f"moraine mcp: {exc}", file=sys.stderr, flush=True)
    server = _server(relay)
    sink, inner = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    async with stdio_server() as (read_stream, write_stream), anyio.create_task_group() as group:
        group.start_soon(relay.stay_attached)
        group.start_soon(_half_close, read_stream, sink, relay.calls)
        await server.run(inner, write_stream, server.create_initialization_options())
        group.cancel_scope.cancel()
    await relay.connection.aclose()


def run_relay(
    paths: DaemonPaths,
    start_timeout: float,
    config_path: Path | None = None,
    floor: ProjectFloor | None = None,
) -> None:
    """Relay MCP between stdin/stdout and the daemon until the client closes stdin and its calls are answered.

    With ``floor`` (``--project-only``) every call is restricted to that project.
    """
    anyio.run(_relay_main, paths, start_timeout, config_path, floor)
