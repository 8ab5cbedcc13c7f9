"""Canonical requests: defaults applied and the document's normalizations done, one module per tool.

Each tool module has ``canonicalize(arguments, settings) -> Canonical``; arguments have already passed the tool's
arguments schema (so types and shapes are right) and carry every schema default.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from moraine.handler_api import Settings
from moraine.server.canonical import file_attention, list_sessions, open, search_sessions
from moraine.server.canonical.base import Canonical

__all__ = ["CANONICALIZERS", "Canonical", "Canonicalizer"]

Canonicalizer = Callable[[dict[str, Any], Settings], Canonical]

CANONICALIZERS: dict[str, Canonicalizer] = {
    "file_attention": file_attention.canonicalize,
    "list_sessions": list_sessions.canonicalize,
    "open": open.canonicalize,
    "search_sessions": search_sessions.canonicalize,
}
