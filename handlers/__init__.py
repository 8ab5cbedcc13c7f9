"""The tool handlers: one module per tool (module name = tool name), registered here from the generated contract.

``load_handlers`` is registered under the ``moraine.tool_handlers`` entry-point group (pyproject.toml), where the
server finds it (``moraine.handler_api.load_handler_table``): this package imports ``moraine``, never the reverse.

Each tool's arguments are parsed once by ``handlers.requests.<tool>.parse(arguments, settings)`` into a frozen
dataclass of typed values (every request rule of the tool lives there); each handler module defines
``handle(request: <that dataclass>, deps: Deps) -> Outcome``, a plain function of the parsed request and its
dependencies that never checks an argument again. It raises ``moraine.errors`` exceptions for failures.
"""

from __future__ import annotations

import importlib

from generated.tools import TOOLS
from moraine.handler_api import Deps, Handler, HandlerEntry, Outcome, Settings

__all__ = ["Deps", "Handler", "HandlerEntry", "Outcome", "Settings", "load_handlers"]


def load_handlers() -> dict[str, HandlerEntry]:
    """Return the registration table: every spec tool -> its parse and its handler module's ``handle``.

    Raises:
        ImportError: a tool has no handler or request module, or one lacks its ``handle`` or ``parse`` function.
    """
    table = {}
    for name, contract in sorted(TOOLS.items()):
        handle = getattr(importlib.import_module(f"handlers.{name}"), "handle", None)
        if not callable(handle):
            raise ImportError(f"handlers.{name} must define handle(request, deps) -> Outcome for tool {name}")
        parse = getattr(importlib.import_module(f"handlers.requests.{name}"), "parse", None)
        if not callable(parse):
            raise ImportError(
                f"handlers.requests.{name} must define parse(arguments, settings) for tool {name}"
            )
        table[name] = HandlerEntry(parse, contract.data_model, handle)
    return table
