"""Forgetting sessions on purpose: pick them, remember them as forgotten, and remove their rows from disk.

A lightweight ``DELETE`` only masks rows (the bytes stay in the part until a merge that may never come), so rows
are removed by mutations (``ALTER TABLE ... DELETE``) that rewrite every part holding them, waited for
(``mutations_sync = 2``). The parts they replace stay on disk until ClickHouse's cleanup removes them,
``old_parts_lifetime`` seconds later (10 s on our tables: migration 013); ``outdated_parts`` and
``parts_remaining`` let a caller wait for that.

The ``forgotten`` table keeps the key, source and harness of each forgotten session (never its content); ingest
reads it (``forgotten_keys``) and drops their rows, so a forgotten session stays forgotten when its trace file is
read again or grows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from moraine.store.client import Store

__all__ = [
    "CONTENT_TABLES",
    "ForgetCriteria",
    "ForgetTarget",
    "PURGED_TABLES",
    "forgotten_count",
    "forgotten_keys",
    "find_sessions",
    "outdated_parts",
    "parts_remaining",
    "purge_checkpoint_versions",
    "purge_sessions",
    "purge_streams",
    "record_forgotten",
    "rows_left",
]

# Every table with rows keyed by session (turn, event) whose content must go.
PURGED_TABLES = ("events", "turns", "sessions", "postings", "touches", "vectors", "mirror_watermarks")
_MUTATION = {"mutations_sync": 2}
# The tables whose replaced parts may still hold content, which a forget waits on (migration 013 keeps replaced parts
# 10 s; 014 and 015 have ClickHouse look for them every 1-5 s).
CONTENT_TABLES = (*PURGED_TABLES, "checkpoints", "ingest_errors", "doc_stats")


@dataclass(frozen=True, slots=True)
class ForgetCriteria:
    """Which sessions to forget: any of ``session_keys`` / ``native_ids``, narrowed by every other field given."""

    session_keys: tuple[int, ...] = ()
    native_ids: tuple[str, ...] = ()
    path: str | None = None
    harness: str | None = None
    before: datetime | None = None
    projects: tuple[str, ...] = field(default_factory=tuple)  # project ids; a session matches any of them

    def empty(self) -> bool:
        """Return whether nothing narrows the choice (forgetting everything is never meant)."""
        return not (
            self.session_keys or self.native_ids or self.path or self.harness or self.before or self.projects
        )


@dataclass(frozen=True, slots=True)
class ForgetTarget:
    """One session to forget, as the confirmation shows it."""

    session_key: int
    source: str
    harness: str
    title: str | None
    source_path: str
    updated_at: datetime | None


def find_sessions(store: Store, criteria: ForgetCriteria, limit: int = 100_000) -> list[ForgetTarget]:
    """Return the sessions ``criteria`` selects (none when it is empty), oldest first."""
    if criteria.empty():
        return []
    where: list[str] = []
    params: dict[str, Any] = {"limit": limit}
    if criteria.session_keys or criteria.native_ids:
        where.append("(session_key IN {keys:Array(UInt64)} OR harness_session_id IN {natives:Array(String)})")
        params["keys"] = list(criteria.session_keys)
        params["natives"] = list(criteria.native_ids)
    if criteria.path is not None:
        where.append("source_path = {path:String}")
        params["path"] = criteria.path
    if criteria.harness is not None:
        where.append("harness = {harness:String}")
        params["harness"] = criteria.harness
    if criteria.before is not None:
        where.append("coalesce(updated_at, started_at) < {before:DateTime64(3, 'UTC')}")
        params["before"] = criteria.before.astimezone(UTC).replace(tzinfo=None)
    if criteria.projects:
        where.append("project_id IN {projects:Array(String)}")
        params["projects"] = list(criteria.projects)
    rows = store.query(
        f"SELECT session_key, source, harness, title, source_path, updated_at FROM {store.table('sessions')} FINAL "
        f"WHERE {' AND '.join(where)} ORDER BY coalesce(updated_at, started_at), session_key LIMIT {{limit:UInt64}}",
        params,
    )
    return [
        ForgetTarget(int(key), str(source), str(harness), title, str(path), updated)
        for key, source, harness, title, path, updated in rows
    ]


def record_forgotten(store: Store, targets: Sequence[ForgetTarget]) -> None:
    """Remember ``targets`` as forgotten (ingest drops their rows from now on)."""
    now = datetime.now(UTC)
    store.insert(
        "forgotten",
        [[t.session_key, t.source, t.harness, now] for t in targets],
        ["session_key", "source", "harness", "forgotten_at"],
    )


def forgotten_keys(store: Store) -> frozenset[int]:
    """Return the keys of every forgotten session."""
    return frozenset(
        int(row[0]) for row in store.query(f"SELECT DISTINCT session_key FROM {store.table('forgotten')}")
    )


def forgotten_count(store: Store) -> int:
    """Return how many sessions are held back as forgotten."""
    return int(store.query(f"SELECT uniqExact(session_key) FROM {store.table('forgotten')}")[0][0])


def purge_sessions(store: Store, keys: Sequence[int]) -> None:
    """Remove every row of the sessions ``keys`` from each table in ``PURGED_TABLES`` (rewriting their parts)."""
    if not keys:
        return
    for table in PURGED_TABLES:
        store.command(
            f"ALTER TABLE {store.table(table)} DELETE WHERE session_key IN {{keys:Array(UInt64)}}",
            {"keys": list(keys)},
            settings=_MUTATION,
        )


def purge_streams(store: Store, streams: Sequence[tuple[int, str, str]]) -> None:
    """Remove the per-file rows of whole streams ``(stream_id, source, path)``: search statistics, ingest errors."""
    for stream, source, path in streams:
        store.command(
            f"ALTER TABLE {store.table('doc_stats')} DELETE WHERE stream_id = {{stream:UInt64}}",
            {"stream": stream},
            settings=_MUTATION,
        )
        store.command(
            f"ALTER TABLE {store.table('ingest_errors')} DELETE WHERE source = {{source:String}} AND path = {{path:String}}",
            {"source": source, "path": path},
            settings=_MUTATION,
        )


def purge_checkpoint_versions(store: Store, streams: Sequence[int], below: int) -> None:
    """Remove the checkpoint rows of ``streams`` older than version ``below`` (their saved state held content)."""
    if streams:
        store.command(
            f"ALTER TABLE {store.table('checkpoints')} DELETE "
            "WHERE stream_id IN {streams:Array(UInt64)} AND version < {below:UInt64}",
            {"streams": list(streams), "below": below},
            settings=_MUTATION,
        )


def rows_left(store: Store, keys: Sequence[int]) -> int:
    """Return how many event, turn and session rows the sessions ``keys`` still have (0 once purged)."""
    if not keys:
        return 0
    total = 0
    for table in ("events", "turns", "sessions"):
        total += int(
            store.query(
                f"SELECT count() FROM {store.table(table)} WHERE session_key IN {{keys:Array(UInt64)}}",
                {"keys": list(keys)},
            )[0][0]
        )
    return total


def outdated_parts(store: Store) -> set[tuple[str, str]]:
    """Return (table, part) of every part of a table with content that was replaced but is still on disk."""
    rows = store.query(
        "SELECT table, name FROM system.parts "
        "WHERE database = {db:String} AND table IN {tables:Array(String)} AND active = 0",
        {"db": store.database, "tables": list(CONTENT_TABLES)},
    )
    return {(str(table), str(name)) for table, name in rows}


def parts_remaining(store: Store, parts: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """Return which of ``parts`` are still on disk."""
    return parts & outdated_parts(store) if parts else set()
