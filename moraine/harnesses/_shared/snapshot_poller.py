"""Read an application's SQLite store as one snapshot per conversation changed since the saved position.

Stores that keep a conversation across rows rewritten in place (Forge, Piebald, ZCode) are read the same way: list
each conversation with its change time, and for those changed at or after the position (Unix microseconds) yield a
snapshot record the adapter compares with what it already emitted. A conversation still being written (its
snapshot ``unsettled``) holds the position at its change time, so it is read again on later polls until it
settles, even when other conversations change after it. A subclass names the tables and columns it needs and
builds the change list and the snapshots.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

from moraine.harnesses._shared.fields import parse_timestamp
from moraine.harness_api.model import IngestError, RawRecord
from moraine.harness_api.reader import ReadItem
from moraine.harnesses._shared.sqlite import SqlitePoller, table_columns

__all__ = ["SnapshotPoller", "Unreadable", "change_us"]


class Unreadable(Exception):
    """A conversation's rows cannot be read as a snapshot (the message says why); it is reported and skipped."""


def change_us(value: Any) -> int | None:
    """Return a store's change time (ISO text, ``YYYY-MM-DD HH:MM:SS``, Unix s/ms, or digits) in Unix µs."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    moment, _ = parse_timestamp(value.replace(" ", "T", 1) if isinstance(value, str) else value)
    return None if moment is None else int(moment.timestamp() * 1_000_000)


class SnapshotPoller(SqlitePoller):
    """Yield one snapshot per conversation changed since the position (see the module docstring)."""

    store: ClassVar[str]  # the application's name, for messages
    required: ClassVar[Mapping[str, frozenset[str]]]  # table -> the columns read

    def changes(self, connection: sqlite3.Connection) -> Iterable[tuple[Any, Any]]:
        """Return ``(conversation id, change time as stored)`` of every conversation."""
        raise NotImplementedError

    def snapshot(self, connection: sqlite3.Connection, conversation: Any) -> dict[str, Any] | None:
        """Return the snapshot record of one conversation (None: gone); set ``unsettled`` while it is written."""
        raise NotImplementedError

    def poll(
        self, connection: sqlite3.Connection, path: Path, offset: int, line_no: int
    ) -> Iterator[ReadItem]:
        """Yield the snapshots of conversations changed at or after ``offset``, oldest change first."""
        for table, columns in self.required.items():
            missing = columns - table_columns(connection, table)
            if missing:
                detail = f"table {table} lacks {', '.join(sorted(missing))}: not a known {self.store} schema"
                yield from self.once(
                    f"schema:{path}:{table}", IngestError("schema_drift", detail), offset, line_no
                )
                return
        changed: list[tuple[int, Any]] = []
        for conversation, stored in self.changes(connection):
            change = change_us(stored)
            if change is None:
                detail = f"{self.store} conversation {conversation}: unreadable change time {stored!r}"
                yield from self.once(
                    f"time:{conversation}:{stored}", IngestError("malformed_row", detail), offset, line_no
                )
            elif change >= offset:
                changed.append((change, conversation))
        hold: int | None = None
        for change, conversation in sorted(changed, key=lambda c: c[0]):
            line_no += 1
            end = change if hold is None else hold
            try:
                data = self.snapshot(connection, conversation)
            except Unreadable as exc:
                error = IngestError("malformed_row", f"{self.store} conversation {conversation}: {exc}")
                yield ReadItem(None, error, offset, line_no, end, line_no)
                continue
            if data is None:
                continue
            if data.get("unsettled") and hold is None:
                hold = end = change
            yield ReadItem(RawRecord(data, line_no, change), None, offset, line_no, end, line_no)
