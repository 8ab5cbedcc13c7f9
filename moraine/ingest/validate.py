"""Guard the row builder against adapter bugs: an item whose fields have the wrong types is rejected, not stored.

An event whose structured fields nest deeper than ``MAX_DEPTH`` is rejected too: redaction, the row builder and
file-touch extraction walk them recursively, and a record passed through from a hostile trace must fail here, as
one ``invalid_event`` error, not as a ``RecursionError`` half-way through its rows.
"""

from __future__ import annotations

from datetime import datetime

from moraine.harnesses._shared.depth import MAX_DEPTH, too_deep
from moraine.harness_api.model import Event, EventType, TerminalKind

__all__ = ["InvalidItem", "check_event"]


class InvalidItem(Exception):
    """An adapter emitted an item whose fields have the wrong types (recorded as an ``invalid_event`` error)."""


_STR_FIELDS = ("tool_name", "tool_call_id", "model", "cwd")


def check_event(event: Event) -> None:
    """Reject an event whose fields have types the row builder cannot store."""
    if not isinstance(event.session, str) or not event.session:
        raise InvalidItem("event without a session id")
    if not isinstance(event.type, EventType):
        raise InvalidItem(f"event type {event.type!r} is not an EventType")
    if not isinstance(event.text, str):
        raise InvalidItem(f"event text is {type(event.text).__name__}, not str")
    if event.timestamp is not None and not isinstance(event.timestamp, datetime):
        raise InvalidItem("event timestamp is not a datetime")
    for name in _STR_FIELDS:
        value = getattr(event, name)
        if value is not None and not isinstance(value, str):
            raise InvalidItem(f"event {name} is {type(value).__name__}, not str")
    if event.exit_code is not None and (
        isinstance(event.exit_code, bool)
        or not isinstance(event.exit_code, int)
        or not -(2**31) <= event.exit_code < 2**31
    ):
        raise InvalidItem(f"event exit_code {event.exit_code!r} is not a 32-bit integer")
    if event.terminal_kind is not None and not isinstance(event.terminal_kind, TerminalKind):
        raise InvalidItem("event terminal_kind is not a TerminalKind")
    if not isinstance(event.provenance, dict):
        raise InvalidItem("event provenance is not a dict")
    for name in ("arguments", "provenance"):
        if too_deep(getattr(event, name)):
            raise InvalidItem(f"event {name}: nesting deeper than {MAX_DEPTH} levels")
