"""The tool handlers: one module per tool (module name = tool name), registered here from the generated contract.

``load_handlers`` is registered under the ``moraine.tool_handlers`` entry-point group (pyproject.toml), where the
server finds it (``moraine.handler_api.load_handler_table``): this package imports ``moraine``, never the reverse.

Each handler module defines ``handle(request: <generated request model>, deps: Deps) -> Outcome``: a plain function
of a validated, canonical request and its dependencies. It raises ``moraine.errors`` exceptions for failures.
"""

from __future__ import annotations

import importlib

from generated.tools import TOOLS
from moraine.handler_api import Deps, Handler, HandlerEntry, Outcome, Settings

__all__ = ["Deps", "Handler", "HandlerEntry", "Outcome", "Settings", "load_handlers"]


def load_handlers() -> dict[str, HandlerEntry]:
    """Return the registration table: every spec tool -> its handler module's ``handle``.

    Raises:
        ImportError: a tool has no handler module, or the module has no ``handle`` function.
    """
    table = {}
    for name, contract in sorted(TOOLS.items()):
        module = importlib.import_module(f"handlers.{name}")
        handle = getattr(module, "handle", None)
        if not callable(handle):
            raise ImportError(f"handlers.{name} must define handle(request, deps) -> Outcome for tool {name}")
        table[name] = HandlerEntry(contract.request_model, contract.data_model, handle)
    return table
