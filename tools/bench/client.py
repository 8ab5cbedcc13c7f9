"""Call the four tools in-process the way the server does, and hand back each response's ``data``.

The server's own ``moraine.server.service.ToolService`` is used when it exists (argument checks, handler in a
worker thread, envelope, response validation), driven through an anyio blocking portal so that any number of
client threads share one event loop as the server's transports do. Without it: the handler table directly.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import anyio.from_thread

from handlers import Deps, HandlerEntry, Settings, load_handlers
from moraine.handler_api import data_json
from moraine.semantic.hybrid import SemanticRanker
from moraine.server.requests import check_request
from moraine.store.client import Store

__all__ = ["HandlerClient", "ToolClient", "ToolFailed", "open_client"]

Json = dict[str, Any]


class ToolFailed(Exception):
    """A tool call returned an error envelope (or raised) instead of data."""


class ToolClient(Protocol):
    via: str  # how calls are made, for the report
    semantic: SemanticRanker  # the handlers' hybrid ranker (empty: lexical search)

    def call(self, tool: str, arguments: Json) -> Json:
        """Return the ``data`` of a successful call; raise ``ToolFailed`` otherwise."""
        ...


class HandlerClient:
    """Calls the handler table directly: the server's argument checks and the tool's parse, the handler, JSON
    serialization."""

    via = "handlers.load_handlers() (check_request -> parse -> handler -> data model -> JSON); no server dispatch"

    def __init__(self, deps: Deps, handlers: dict[str, HandlerEntry]) -> None:
        self.deps = deps
        self.handlers = handlers
        self.semantic = deps.semantic

    def call(self, tool: str, arguments: Json) -> Json:
        entry = self.handlers[tool]
        try:
            checked = check_request(tool, arguments, entry.parse, self.deps.settings)
            outcome = entry.handle(checked.parsed, self.deps)
        except Exception as exc:  # a failed call is a benchmark finding, never a crash of the benchmark
            raise ToolFailed(f"{tool}: {type(exc).__name__}: {exc}") from exc
        return data_json(outcome.data)


class ServiceClient:
    """Calls the server's ToolService on an event loop shared by every calling thread."""

    via = "moraine.server.service.ToolService (the server's dispatch: checks, handler, envelope, validation)"

    def __init__(self, service: Any, portal: anyio.from_thread.BlockingPortal) -> None:
        self._service = service
        self._portal = portal
        self.semantic: SemanticRanker = service.deps.semantic

    def call(self, tool: str, arguments: Json) -> Json:
        try:
            reply = self._portal.call(self._service.call, tool, arguments)
        except Exception as exc:  # see HandlerClient.call
            raise ToolFailed(f"{tool}: {type(exc).__name__}: {exc}") from exc
        envelope: Json = reply.envelope
        if reply.is_error:
            error = envelope.get("error", {})
            raise ToolFailed(f"{tool}: {error.get('code')}: {error.get('message')}")
        data: Json = envelope["data"]
        return data


@contextmanager
def open_client(store: Store, max_results: int = 50) -> Iterator[ToolClient]:
    """Yield the most server-like in-process client available for ``store``.

    Raises:
        ImportError: the handler table cannot be loaded (a tool has no handler yet).
    """
    deps = Deps(store=store, settings=Settings(max_results=max_results), launch_dir=None)
    handlers = load_handlers()
    try:
        service_module = importlib.import_module("moraine.server.service")
    except ImportError:
        yield HandlerClient(deps, handlers)
        return
    service = service_module.ToolService(deps, handlers)
    with anyio.from_thread.start_blocking_portal() as portal:
        yield ServiceClient(service, portal)
