"""The interface the tool handlers are written against: how their arguments are parsed (``Parse`` ->
``ParsedRequest``), what else they are given (``Deps``, ``Settings``), what they return (``Outcome``) and how the
server finds them (``HandlerEntry``, ``load_handler_table``).

The handlers live in the top-level ``handlers`` package, which imports ``moraine``; ``moraine`` never imports
``handlers``. The handlers package registers its table under the ``moraine.tool_handlers`` entry-point group, and
the server loads it from there (``table.load_handler_table``).
"""

from __future__ import annotations

from moraine.handler_api.deps import Deps, Settings
from moraine.handler_api.outcome import Handler, HandlerEntry, Outcome, Parse, ParsedRequest, data_json
from moraine.handler_api.table import load_handler_table

__all__ = [
    "Deps",
    "Handler",
    "HandlerEntry",
    "Outcome",
    "Parse",
    "ParsedRequest",
    "Settings",
    "data_json",
    "load_handler_table",
]
