"""Stop the running statements of one tool call (``moraine.daemon.cancel``), matched by their query tag."""

from __future__ import annotations

from moraine.store.client import Store
from moraine.store.querytag import MARKER_PREFIX, QueryTag

__all__ = ["kill_tagged"]

# The marker is passed in two parts so the KILL statement's own text never matches it.
_KILL_SQL = "KILL QUERY WHERE position(query, concat({prefix:String}, {token:String})) > 0 ASYNC"


def kill_tagged(control: Store, tag: QueryTag) -> None:
    """Ask the store to stop every running statement of ``tag``."""
    control.command(_KILL_SQL, {"prefix": MARKER_PREFIX, "token": tag.token})
