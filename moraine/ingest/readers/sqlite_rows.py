"""A SQLite store whose records are rows appended with growing ids: checked once for its schema, then read by id.

``RowPoller`` is the shape the Goose and Omnigent readers share: a subclass names the tables and columns every known
schema has (``required``) and the optional tables it reads when present (``optional``), builds its query from the
columns found (``query``: rows with id ``> ?`` in id order, ``LIMIT ?``, the id first) and turns a row into a
``ReadItem`` (``item``). A store that lacks a required column is reported once, as ``schema_drift``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from moraine.ingest.model import IngestError
from moraine.ingest.reader import ReadItem
from moraine.ingest.readers.sqlite import SqlitePoller, table_columns

__all__ = ["RowPoller"]

_BATCH = 1000


class RowPoller(SqlitePoller):
    """Poll a store read-only; yield its rows after the saved id (see the module docstring)."""

    required: ClassVar[dict[str, set[str]]]  # table -> the columns every known schema has
    optional: ClassVar[tuple[str, ...]] = ()  # tables read when present
    what: ClassVar[str]  # the store's name in messages ("Goose", "Omnigent")

    def query(self, columns: dict[str, set[str]]) -> str:
        """Return the query of the rows after an id (``?``), at most ``?`` of them, for the columns found."""
        raise NotImplementedError

    def item(self, row: tuple[Any, ...], previous: int, line_no: int) -> ReadItem:
        """Return the read item of one row (its id first); ``previous`` is the position before it."""
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
                line_no += 1
                previous, position = position, int(row[0])
                yield self.item(row, previous, line_no)
