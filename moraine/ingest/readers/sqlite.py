"""Open an application's SQLite database read-only and query it safely while the application writes to it.

The database is opened through a ``file:...?mode=ro`` URI (never ``immutable``: the owner keeps writing, and SQLite
must see its WAL). A busy or locked database is not an error: the caller stops this pass and retries on the next
poll from the same position, so no row is skipped or lost.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

__all__ = ["DatabaseBusy", "is_busy", "open_read_only", "table_columns"]

# How long one statement waits for a writer's lock before the pass gives up and retries later.
BUSY_TIMEOUT_SECONDS = 0.5


class DatabaseBusy(Exception):
    """The database is locked or busy right now: stop this pass and retry on the next poll."""


def is_busy(error: sqlite3.Error) -> bool:
    """Return whether ``error`` means "locked/busy, try again later" rather than a real failure."""
    text = str(error).lower()
    return "locked" in text or "busy" in text


@contextmanager
def open_read_only(path: Path) -> Iterator[sqlite3.Connection]:
    """Yield a read-only connection to ``path``; raise ``DatabaseBusy`` when it is locked."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    try:
        connection = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS, check_same_thread=False)
    except sqlite3.OperationalError as exc:
        if is_busy(exc):
            raise DatabaseBusy(str(exc)) from exc
        raise
    try:
        yield connection
    except sqlite3.OperationalError as exc:
        if is_busy(exc):
            raise DatabaseBusy(str(exc)) from exc
        raise
    finally:
        connection.close()


def table_columns(connection: sqlite3.Connection, table: str) -> set[str]:
    """Return the column names of ``table`` (empty when the table does not exist)."""
    rows = connection.execute("SELECT name FROM pragma_table_info(?)", (table,)).fetchall()
    return {str(row[0]) for row in rows}
