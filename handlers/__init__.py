"""The tool handlers: one module per tool (module name = tool name), registered here from the generated contract.

Each handler module defines ``handle(request: <generated request model>, deps: Deps) -> Outcome``: a plain function
of a validated, canonical request and its dependencies. It raises ``moraine.errors`` exceptions for failures.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from generated.tools import TOOLS
from handlers.base import Outcome
from handlers.deps import Deps, Settings

__all__ = ["Deps", "Handler", "HandlerEntry", "Outcome", "Settings", "load_handlers"]

Handler = Callable[[Any, Deps], Outcome]


@dataclass(frozen=True, slots=True)
class HandlerEntry:
    """A tool's canonical request model, its data model and the function that answers it."""

    request_model: type[BaseModel]
    data_model: type[BaseModel]
    handle: Handler


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
