"""The mirror's statements (``moraine.mirror``): local sessions and watermarks, rows to copy, a backend's schema
version, and deleting a backend's rows a dead pass left behind."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from moraine.store.client import Store
from moraine.store.versions import next_version

__all__ = [
    "StoredSession",
    "delete_doc_stats_from",
    "delete_session",
    "delete_session_past",
    "latest_rows",
    "local_sessions",
    "migrated_version",
    "record_watermark",
    "rows_past",
    "watermarks",
]


@dataclass(frozen=True, slots=True)
class StoredSession:
    """A stored session as the mirror routes it: its events are seq 1..``last_seq``."""

    key: int
    cwd: str | None
    generation: int
    last_seq: int
    stream_id: int


def _select(
    store: Store, table: str, columns: Sequence[str], where: str, params: dict[str, Any]
) -> list[dict[str, Any]]:
    rows = store.query(f"SELECT {', '.join(columns)} FROM {store.table(table)} {where}", params)
    return [dict(zip(columns, row, strict=True)) for row in rows]


def rows_past(
    store: Store, table: str, columns: Sequence[str], key: int, start: int, by_seq: bool = False
) -> list[dict[str, Any]]:
    """Return ``columns`` of a session's rows of ``table`` with ``seq > start``, as dicts (in seq order when
    ``by_seq``)."""
    where = "WHERE session_key = {key:UInt64} AND seq > {start:UInt32}" + (" ORDER BY seq" if by_seq else "")
    return _select(store, table, columns, where, {"key": key, "start": start})


def latest_rows(store: Store, table: str, columns: Sequence[str], key: int) -> list[dict[str, Any]]:
    """Return ``columns`` of a session's latest rows of a replacing ``table`` (turns, sessions), as dicts."""
    return _select(store, table, columns, "FINAL WHERE session_key = {key:UInt64}", {"key": key})


def local_sessions(store: Store) -> list[StoredSession]:
    """Return every stored session (its events are seq 1..event_count, so no events scan is needed)."""
    rows = store.query(
        f"SELECT session_key, cwd, generation, stream_id, event_count FROM {store.table('sessions')} FINAL"
    )
    return [StoredSession(int(r[0]), r[1], int(r[2]), int(r[4]), int(r[3])) for r in rows]


def watermarks(store: Store, backend: str) -> dict[int, tuple[int, int]]:
    """Return how far each session was copied to ``backend``: session key -> (generation, seq)."""
    rows = store.query(
        f"SELECT session_key, generation, seq FROM {store.table('mirror_watermarks')} FINAL "
        "WHERE backend = {backend:String}",
        {"backend": backend},
    )
    return {int(r[0]): (int(r[1]), int(r[2])) for r in rows}


def record_watermark(store: Store, backend: str, session: StoredSession) -> None:
    """Record that ``session`` is copied to ``backend`` up to its last event."""
    store.insert(
        "mirror_watermarks",
        [[backend, session.key, session.generation, session.last_seq, next_version()]],
        ("backend", "session_key", "generation", "seq", "version"),
    )


def delete_session(store: Store, tables: Sequence[str], key: int) -> None:
    """Delete every row of a session from ``tables``."""
    for table in tables:
        store.command(f"DELETE FROM {store.table(table)} WHERE session_key = {{key:UInt64}}", {"key": key})


def delete_session_past(store: Store, tables: Sequence[str], key: int, start: int) -> None:
    """Delete a session's rows with ``seq > start`` from ``tables``."""
    for table in tables:
        store.command(
            f"DELETE FROM {store.table(table)} WHERE session_key = {{key:UInt64}} AND seq > {{start:UInt32}}",
            {"key": key, "start": start},
        )


def delete_doc_stats_from(store: Store, stream_id: int, offset: int) -> None:
    """Delete a stream's corpus statistics rows keyed at or after ``offset``."""
    store.command(
        f"DELETE FROM {store.table('doc_stats')} WHERE stream_id = {{stream:UInt64}} "
        "AND source_offset >= {offset:UInt64}",
        {"stream": stream_id, "offset": offset},
    )


def migrated_version(store: Store, database: str) -> int | None:
    """Return the highest migration applied to ``database`` (None: it has no migrations table yet)."""
    tables = store.query(
        "SELECT count() FROM system.tables WHERE database = {db:String} AND name = 'schema_migrations'",
        {"db": database},
    )
    if not (tables and int(tables[0][0])):
        return None
    rows = store.query(f"SELECT max(version) FROM {store.table('schema_migrations')}")
    return int(rows[0][0] or 0) if rows else 0
