"""A SQLite store whose records are rows appended with growing ids: checked once for its schema, then read by id.

``RowPoller`` is the shape the Goose and Omnigent readers share: a subclass names the tables and columns every known
schema has (``required``) and the optional tables it reads when present (``optional``), builds its query from the
columns found (``query``: rows with id ``> ?`` in id order, ``LIMIT ?``, the id first) and turns a row into a
``ReadItem`` (``item``). A store that lacks a required column is reported once, as ``schema_drift``.

``GuardedPoller`` (which ``RowPoller`` is) reports a file that SQLite cannot read at all (not a database, corrupt)
once, as ``unreadable_database``, instead of stopping the ingest pass; a busy or locked store still just waits.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from moraine.harness_api.model import IngestError
from moraine.harness_api.reader import ReadItem
from moraine.harnesses._shared.sqlite import SqlitePoller, is_busy, table_columns

__all__ = ["GuardedPoller", "RowPoller"]

_BATCH = 1000


class GuardedPoller(SqlitePoller):
    """A SQLite poller that reports an unreadable file once instead of raising (see the module docstring)."""

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the records changed since ``offset``; an unreadable database is reported once, where reading stopped."""
        end, end_line = offset, line_no
        try:
            for item in super().read(path, offset, line_no):
                end, end_line = item.end, item.end_line
                yield item
        except sqlite3.DatabaseError as exc:
            if is_busy(exc):
                return
            error = IngestError("unreadable_database", f"{type(exc).__name__}: {exc}")
            yield from self.once(f"{path}:unreadable", error, end, end_line)


class RowPoller(GuardedPoller):
    """Poll a store read-only; yield its rows after the saved id (see the module docstring)."""

    required: ClassVar[dict[str, set[str]]]  # table -> the columns every known schema has
    optional: ClassVar[tuple[str, ...]] = ()  # tables read when present
    what: ClassVar[str]  # the store's name in messages ("Goose", "Omnigent")

    def query(self, columns: dict[str, set[str]]) -> str:
        """Return the query of the rows after an id (``?``), at most ``?`` of them, for the columns found."""
        raise NotImplementedError

    def item(self, row: tuple[Any, ...], previous: int, line_no: int) -> ReadItem | None:
        """Return the read item of one row (its id first; ``previous`` is the position before it), None to skip it.

        A skipped row is passed over within this pass; the position moves past it with the next item yielded.
        """
        raise NotImplementedError

    def poll(
        self, connection: sqlite3.Connection, path: Path, offset: int, line_no: int
    ) -> Iterator[ReadItem]:
        """Yield the rows with an id above ``offset``, in id order."""
        columns = {table: table_columns(connection, table) for table in (*self.required, *self.optional)}
        for table, required in self.required.items():
            missing = required - columns[table]
            if missing:
                detail = f"table {table} lacks {', '.join(sorted(missing))}: not a known {self.what} schema"
                yield from self.once(f"{path}:{table}", IngestError("schema_drift", detail), offset, line_no)
                return
        query = self.query(columns)
        position = offset
        while rows := connection.execute(query, (position, _BATCH)).fetchall():
            for row in rows:
                previous, position = position, int(row[0])
                item = self.item(row, previous, line_no + 1)
                if item is not None:
                    line_no += 1
                    yield item
