"""Read session rows (``sessions FINAL``, always filtered by key)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from moraine.store.client import Store
from moraine.store.reads.settled import SESSION_COMPLETED

__all__ = ["SESSION_COLUMNS", "SessionRecord", "fetch_session", "session_from_row"]

SESSION_COLUMNS = (
    "session_key, source, harness, title, summary, slug, first_user_message, started_at, updated_at, "
    f"{SESSION_COMPLETED}, turn_count, event_count, mode, generation, project_id, harness_session_id, cwd"
)


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """The latest version of one session's metadata."""

    key: int
    source: str
    harness: str
    title: str | None
    summary: str | None
    slug: str | None
    first_user_message: str | None
    started_at: datetime | None
    updated_at: datetime | None
    completed: bool
    turn_count: int
    event_count: int
    mode: str
    generation: int
    project_id: str | None = None  # the project identity (None when unknown): session neighbours share it
    native_id: str | None = None  # the harness's own ID of the session (what its resume command takes)
    cwd: str | None = None  # the session's working directory


def session_from_row(row: tuple[Any, ...]) -> SessionRecord:
    """Build a record from a row selected with ``SESSION_COLUMNS``."""
    return SessionRecord(
        key=int(row[0]),
        source=row[1],
        harness=row[2],
        title=_blank_to_none(row[3]),
        summary=_blank_to_none(row[4]),
        slug=_blank_to_none(row[5]),
        first_user_message=_blank_to_none(row[6]),
        started_at=row[7],
        updated_at=row[8],
        completed=bool(row[9]),
        turn_count=int(row[10]),
        event_count=int(row[11]),
        mode=row[12],
        generation=int(row[13]),
        project_id=row[14] or None,
        native_id=row[15] or None,
        cwd=row[16] or None,
    )


def _blank_to_none(value: str | None) -> str | None:
    if value is None or not value.strip():
        return None
    return value


def fetch_session(store: Store, key: int) -> SessionRecord | None:
    """Return the session with this key, or ``None``."""
    rows = store.query(
        f"SELECT {SESSION_COLUMNS} FROM {store.table('sessions')} FINAL WHERE session_key = {{key:UInt64}}",
        {"key": key},
    )
    return session_from_row(rows[0]) if rows else None
