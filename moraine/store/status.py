"""Store status for ``moraine status``: table counts, per-source coverage and recent ingest errors."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from moraine.store.client import Store
from moraine.store.forget import forgotten_count
from moraine.store.vectorizing import vector_progress

__all__ = [
    "IngestErrorRow",
    "SourceCoverage",
    "recent_errors",
    "session_counts",
    "source_coverage",
    "table_counts",
]


@dataclass(frozen=True, slots=True)
class SourceCoverage:
    source: str
    files: int
    sessions: int
    events: int
    errors: int
    last_ingest: datetime | None


@dataclass(frozen=True, slots=True)
class IngestErrorRow:
    at: datetime
    source: str
    path: str
    line_no: int
    reason: str
    detail: str


def table_counts(store: Store) -> dict[str, int]:
    """Return the row count of each table (sessions and turns counted once per key)."""
    counts = {}
    for table in ("events", "postings", "touches", "ingest_errors"):
        counts[table] = int(store.query(f"SELECT count() FROM {store.table(table)}")[0][0])
    for table in ("sessions", "turns", "checkpoints"):
        counts[table] = int(store.query(f"SELECT count() FROM {store.table(table)} FINAL")[0][0])
    counts["forgotten"] = forgotten_count(store)  # sessions `moraine forget` holds back from every ingest
    progress = vector_progress(store)  # semantic recall: embedded so far, still to embed
    counts["vectors"], counts["vectors_pending"] = progress.vectors, progress.pending
    return counts


def source_coverage(store: Store) -> dict[str, SourceCoverage]:
    """Return, per source seen in the store: files checkpointed, sessions, events, errors, last ingest time."""
    files = {
        src: (int(n), at)
        for src, n, at in store.query(
            f"SELECT source, count(), max(updated_at) FROM {store.table('checkpoints')} FINAL GROUP BY source"
        )
    }
    sessions = {
        src: (int(n), int(events))
        for src, n, events in store.query(
            f"SELECT source, count(), sum(event_count) FROM {store.table('sessions')} FINAL GROUP BY source"
        )
    }
    errors = {
        src: int(n)
        for src, n in store.query(
            f"SELECT source, count() FROM {store.table('ingest_errors')} GROUP BY source"
        )
    }
    out = {}
    for source in sorted(set(files) | set(sessions) | set(errors)):
        file_count, at = files.get(source, (0, None))
        session_count, event_count = sessions.get(source, (0, 0))
        out[source] = SourceCoverage(
            source, file_count, session_count, event_count, errors.get(source, 0), at
        )
    return out


def session_counts(store: Store) -> dict[str, int]:
    """Return the number of sessions of each source: one grouped count, the only figure the agents list needs."""
    rows = store.query(f"SELECT source, count() FROM {store.table('sessions')} FINAL GROUP BY source")
    return {str(source): int(n) for source, n in rows}


def recent_errors(store: Store, limit: int = 10) -> list[IngestErrorRow]:
    """Return the most recent ingest errors, newest first."""
    rows = store.query(
        f"SELECT at, source, path, line_no, reason, detail FROM {store.table('ingest_errors')} "
        "ORDER BY at DESC LIMIT {limit:UInt32}",
        {"limit": limit},
    )
    return [
        IngestErrorRow(at, src, path, int(line), reason, detail)
        for at, src, path, line, reason, detail in rows
    ]
