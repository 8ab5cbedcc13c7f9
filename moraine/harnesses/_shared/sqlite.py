"""Open an application's SQLite database read-only and query it safely while the application writes to it.

The database is opened through a ``file:...?mode=ro`` URI (never ``immutable``: the owner keeps writing, and SQLite
must see its WAL). A busy or locked database is not an error: the caller stops this pass and retries on the next
poll from the same position, so no row is skipped or lost.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from moraine.harness_api.reader import ReadItem
from moraine.harnesses._shared.once import ReportsOnce

__all__ = ["DatabaseBusy", "SqlitePoller", "is_busy", "open_read_only", "table_columns"]

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


class SqlitePoller(ReportsOnce):
    """The polling loop every SQLite reader shares: open read-only, read what changed, stop quietly when locked.

    ``settle_seconds`` / ``clock``: how long a row must stay unchanged before a reader takes it as complete, and
    the time source (tests move it). A subclass implements ``poll`` (the rows after the position, over an open
    connection); ``once`` reports a persistent problem (an unknown schema, an unreadable row) a single time.
    """

    byte_offsets = False
    default_settle_seconds = 0.0  # readers that wait for rows to stop changing set their own

    def __init__(self, settle_seconds: float | None = None, clock: Callable[[], float] = time.time) -> None:
        self.settle_seconds = self.default_settle_seconds if settle_seconds is None else settle_seconds
        self.clock = clock
        super().__init__()

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the records changed since ``offset``; a busy or locked database ends the pass (retried later)."""
        try:
            with open_read_only(path) as connection:
                yield from self.poll(connection, path, offset, line_no)
        except DatabaseBusy:
            return

    def poll(
        self, connection: sqlite3.Connection, path: Path, offset: int, line_no: int
    ) -> Iterator[ReadItem]:
        """Yield the records of ``connection`` after ``offset`` (``line_no`` records already read)."""
        raise NotImplementedError
