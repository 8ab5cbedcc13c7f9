"""A session's neighbours in time: the previous and next session of the same harness and project.

Sessions are ordered by start time (the first update when the start is unknown), then by session key (the order of
session IDs). A session without a project has no neighbours.
"""

from __future__ import annotations

from dataclasses import dataclass

from moraine.store.client import Store

__all__ = ["Neighbours", "session_neighbours"]

_AT = "ifNull(toUnixTimestamp64Milli(coalesce(started_at, updated_at)), toInt64(0))"


@dataclass(frozen=True, slots=True)
class Neighbours:
    previous: int | None
    following: int | None


def session_neighbours(store: Store, key: int) -> Neighbours:
    """Return the keys of the sessions just before and just after this one (None at the ends), in one statement."""
    table = store.table("sessions")
    me = f"(SELECT tuple(harness, ifNull(project_id, ''), {_AT}) FROM {table} FINAL WHERE session_key = {{key:UInt64}})"
    rows = store.query(
        f"WITH {me} AS me SELECT countIf(before), maxIf(tuple(at, session_key), before), "
        "countIf(after), minIf(tuple(at, session_key), after) "
        f"FROM (SELECT session_key, {_AT} AS at, "
        "(at, session_key) < (tupleElement(me, 3), {key:UInt64}) AS before, "
        "(at, session_key) > (tupleElement(me, 3), {key:UInt64}) AS after "
        f"FROM {table} FINAL WHERE tupleElement(me, 2) != '' "
        "AND harness = tupleElement(me, 1) AND project_id = tupleElement(me, 2))",
        {"key": key},
    )
    n_before, before, n_after, after = rows[0] if rows else (0, None, 0, None)
    return Neighbours(
        int(before[1]) if n_before else None,
        int(after[1]) if n_after else None,
    )
