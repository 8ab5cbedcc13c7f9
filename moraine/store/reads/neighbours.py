"""A session's neighbours in time: the previous and next session of the same harness and project.

Sessions are ordered by start time (the first update when the start is unknown), then by session key (the order of
session IDs). A session without a project has no neighbours.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from moraine.store.client import Store
from moraine.store.reads.sessions import SessionRecord

__all__ = ["Neighbours", "session_neighbours"]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_AT = "ifNull(toUnixTimestamp64Milli(coalesce(started_at, updated_at)), toInt64(0))"


@dataclass(frozen=True, slots=True)
class Neighbours:
    previous: int | None
    following: int | None


def session_neighbours(store: Store, session: SessionRecord) -> Neighbours:
    """Return the keys of the sessions just before and just after this one (None at the ends)."""
    if not session.project_id:
        return Neighbours(None, None)
    # Both neighbours in one pass over the peers: the greatest (at, key) below this one and the least above.
    peers = store.query(
        "SELECT countIf(before), maxIf(tuple(at, session_key), before), "
        "countIf(after), minIf(tuple(at, session_key), after) "
        f"FROM (SELECT session_key, {_AT} AS at, "
        "(at, session_key) < ({at:Int64}, {key:UInt64}) AS before, "
        "(at, session_key) > ({at:Int64}, {key:UInt64}) AS after "
        f"FROM {store.table('sessions')} FINAL "
        "WHERE harness = {harness:String} AND project_id = {project:String})",
        {
            "harness": session.harness,
            "project": session.project_id,
            "at": _epoch_ms(session.started_at or session.updated_at),
            "key": session.key,
        },
    )
    n_before, before, n_after, after = peers[0]
    return Neighbours(int(before[1]) if n_before else None, int(after[1]) if n_after else None)


def _epoch_ms(at: datetime | None) -> int:
    """``_AT`` computed in Python: milliseconds since the epoch (0 when unknown); stored times are UTC."""
    if at is None:
        return 0
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return (at - _EPOCH) // timedelta(milliseconds=1)
