"""Find the handler table without importing the package that defines it.

The ``handlers`` package registers one function under the ``moraine.tool_handlers`` entry-point group
(pyproject.toml); it returns every tool's ``HandlerEntry``. Loading it here keeps the dependency one way:
``handlers`` imports ``moraine``, ``moraine`` only names the group.
"""

from __future__ import annotations

from collections.abc import Callable

from moraine.handler_api.outcome import HandlerEntry
from moraine.plugins import installed_entry_points

__all__ = ["GROUP", "load_handler_table"]

GROUP = "moraine.tool_handlers"


def load_handler_table() -> dict[str, HandlerEntry]:
    """Return the registered handler table (tool name -> entry), loaded afresh on each call.

    Raises:
        ImportError: no function, or more than one, is registered under ``moraine.tool_handlers`` (the package is
            not installed: ``pip install -e .``), or the registered one fails to load a handler.
    """
    points = list(installed_entry_points(GROUP))
    if len(points) != 1:
        found = ", ".join(sorted(f"{point.name} = {point.value}" for point in points)) or "none"
        raise ImportError(f"expected exactly one {GROUP} entry point (pip install -e .), found {found}")
    load: Callable[[], dict[str, HandlerEntry]] = points[0].load()
    return load()
