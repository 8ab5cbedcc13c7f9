"""Read Forge's SQLite store (``~/.forge/.forge.db``, table ``conversations``) as per-conversation snapshots.

Forge keeps one ``conversations`` row per conversation: ``conversation_id``, ``title``, ``context`` (the whole
conversation as JSON, rewritten as it grows), ``created_at``/``updated_at`` (``YYYY-MM-DD HH:MM:SS[.fraction]``,
UTC) and ``metrics``. This reader polls the store read-only and yields one snapshot per conversation changed at or
after the saved position (Unix microseconds of its ``updated_at``, else ``created_at``); the adapter remembers how
many messages of each conversation it emitted, so a re-read snapshot yields only the new ones. Rows without a
context (a conversation not started) are skipped.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from moraine.ingest.model import IngestError, RawRecord
from moraine.ingest.reader import ReadItem
from moraine.ingest.readers.sqlite import SqlitePoller, table_columns
from moraine.ingest.readers.sqlite_nac import change_time_us

__all__ = ["CONVERSATION_RECORD", "ForgeReader"]

CONVERSATION_RECORD = "forge_conversation"
_COLUMNS = {"conversation_id", "title", "context", "created_at", "updated_at"}
_ROWS = """
SELECT conversation_id, title, context, created_at, COALESCE(updated_at, created_at)
FROM conversations
WHERE context IS NOT NULL
"""


class ForgeReader(SqlitePoller):
    """Poll a Forge store read-only; yield a snapshot of every conversation changed since the position."""

    def poll(
        self, connection: sqlite3.Connection, path: Path, offset: int, line_no: int
    ) -> Iterator[ReadItem]:
        """Yield conversation snapshots whose change time is at or after ``offset``, oldest change first."""
        missing = _COLUMNS - table_columns(connection, "conversations")
        if missing:
            detail = f"table conversations lacks {', '.join(sorted(missing))}: not a known Forge schema"
            yield from self.once(f"schema:{path}", IngestError("schema_drift", detail), offset, line_no)
            return
        changed = []
        for row in connection.execute(_ROWS):
            change = change_time_us(row[4])
            if change is None:
                detail = f"conversation {row[0]}: unreadable updated_at {row[4]!r}"
                yield from self.once(
                    f"time:{row[0]}:{row[4]}", IngestError("malformed_row", detail), offset, line_no
                )
            elif change >= offset:
                changed.append((change, row))
        for change, (conversation_id, title, context, created, updated) in sorted(
            changed, key=lambda c: c[0]
        ):
            line_no += 1
            try:
                document = json.loads(context)
            except (TypeError, ValueError) as exc:
                error = IngestError(
                    "malformed_row", f"conversation {conversation_id}: context is not JSON ({exc})"
                )
                yield ReadItem(None, error, offset, line_no, change, line_no)
                continue
            data = {
                "record": CONVERSATION_RECORD,
                "conversation": {
                    "id": conversation_id,
                    "title": title,
                    "created_at": created,
                    "updated_at": updated,
                },
                "context": document,
            }
            yield ReadItem(RawRecord(data, line_no, change), None, offset, line_no, change, line_no)
