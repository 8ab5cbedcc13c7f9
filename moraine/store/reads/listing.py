"""List sessions overlapping a time range, keyset-paginated on (updated_at, session key)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from moraine.store.client import Store
from moraine.store.reads.sessions import SESSION_COLUMNS, SessionRecord, session_from_row

__all__ = ["ListAnchor", "ListQuery", "SessionList", "list_sessions", "to_epoch_ms"]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class ListAnchor:
    """The last row of the previous page: its updated_at (epoch ms) and session key."""

    updated_ms: int
    key: int


@dataclass(frozen=True, slots=True)
class ListQuery:
    start: datetime  # inclusive, aware
    end: datetime  # exclusive, aware
    limit: int
    sort: Literal["asc", "desc"] = "desc"
    mode: str | None = None
    harness: str | None = None
    source: str | None = None
    after: ListAnchor | None = None
    project_id: str | None = None  # a project-only server's floor


@dataclass(frozen=True, slots=True)
class SessionList:
    sessions: list[SessionRecord]
    truncated: bool


def to_epoch_ms(value: datetime) -> int:
    """Return milliseconds since the epoch of an aware (or naive UTC) datetime."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return (value - _EPOCH) // timedelta(milliseconds=1)


def list_sessions(store: Store, query: ListQuery) -> SessionList:
    """Return one page of sessions with ``updated_at >= start`` and ``started_at < end`` in the requested order."""
    where = [
        "updated_at IS NOT NULL",
        "updated_at >= fromUnixTimestamp64Milli({start:Int64}, 'UTC')",
        "coalesce(started_at, updated_at) < fromUnixTimestamp64Milli({end:Int64}, 'UTC')",
    ]
    params: dict[str, Any] = {
        "start": to_epoch_ms(query.start),
        "end": to_epoch_ms(query.end),
        "limit": query.limit + 1,
    }
    for name in ("mode", "harness", "source"):
        value = getattr(query, name)
        if value is not None:
            where.append(f"{name} = {{{name}:String}}")
            params[name] = value
    if query.project_id is not None:
        where.append("project_id = {floor_project:String}")
        params["floor_project"] = query.project_id
    direction = "DESC" if query.sort == "desc" else "ASC"
    if query.after is not None:
        op = "<" if query.sort == "desc" else ">"
        where.append(
            f"(toUnixTimestamp64Milli(assumeNotNull(updated_at)), session_key) {op} "
            "({after_ms:Int64}, {after_key:UInt64})"
        )
        params["after_ms"] = query.after.updated_ms
        params["after_key"] = query.after.key
    rows = store.query(
        f"SELECT {SESSION_COLUMNS} FROM {store.table('sessions')} FINAL WHERE {' AND '.join(where)} "
        f"ORDER BY updated_at {direction}, session_key {direction} LIMIT {{limit:UInt32}}",
        params,
    )
    records = [session_from_row(row) for row in rows]
    return SessionList(records[: query.limit], len(records) > query.limit)
