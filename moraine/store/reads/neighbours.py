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
    """Return the keys of the sessions just before and just after this one (None at the ends)."""
    table = store.table("sessions")
    rows = store.query(
        f"SELECT harness, project_id, {_AT} FROM {table} FINAL WHERE session_key = {{key:UInt64}}",
        {"key": key},
    )
    if not rows or rows[0][1] is None or not rows[0][1]:
        return Neighbours(None, None)
    harness, project, at = rows[0]
    # Both neighbours in one pass over the peers: the greatest (at, key) below this one and the least above.
    peers = store.query(
        "SELECT countIf(before), maxIf(tuple(at, session_key), before), "
        "countIf(after), minIf(tuple(at, session_key), after) "
        f"FROM (SELECT session_key, {_AT} AS at, "
        "(at, session_key) < ({at:Int64}, {key:UInt64}) AS before, "
        "(at, session_key) > ({at:Int64}, {key:UInt64}) AS after "
        f"FROM {table} FINAL WHERE harness = {{harness:String}} AND project_id = {{project:String}})",
        {"harness": harness, "project": project, "at": int(at), "key": key},
    )
    n_before, before, n_after, after = peers[0]
    return Neighbours(int(before[1]) if n_before else None, int(after[1]) if n_after else None)
