"""Read OpenCode's SQLite store (``~/.local/share/opencode/opencode*.db``) as one record per message part.

OpenCode keeps ``session`` (title, directory, parent), ``message`` (role, model, completion in a JSON ``data``
column) and ``part`` (text, reasoning, tool, step markers in ``data``) rows, updating parts in place while a
response streams. This reader polls the store read-only and yields parts in ``rowid`` order after the saved
position, each joined with its message and session. A part is yielded only once its message has completed (or has
been idle for ``settle_seconds``, e.g. after a crash), so its text and tool result are final; the pass stops at
the first part still being written and resumes there on the next poll. Positions are part ``rowid``s.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from moraine.harness_api.model import IngestError, RawRecord
from moraine.harness_api.reader import ReadItem
from moraine.harnesses._shared.sqlite import SqlitePoller, table_columns

__all__ = ["PART_RECORD", "OpenCodeReader"]

PART_RECORD = "opencode_part"
DEFAULT_SETTLE_SECONDS = 120.0
_BATCH = 1000
_REQUIRED = {
    "part": {"id", "message_id", "session_id", "time_created", "data"},
    "message": {"id", "session_id", "data"},
    "session": {"id", "title", "directory"},
}
_PARTS = """
SELECT p.rowid, p.id, p.message_id, p.session_id, p.time_created, p.data,
       m.data, COALESCE(m.time_updated, m.time_created), s.title, s.directory, s.parent_id, s.time_created
FROM part AS p
LEFT JOIN message AS m ON m.id = p.message_id
LEFT JOIN session AS s ON s.id = p.session_id
WHERE p.rowid > ?
ORDER BY p.rowid
LIMIT ?
"""
_LAST_TEXT = "SELECT max(rowid) FROM part WHERE message_id = ? AND json_valid(data) AND json_extract(data, '$.type') = 'text'"


class OpenCodeReader(SqlitePoller):
    """Poll an OpenCode database read-only; yield settled parts after the saved ``rowid``."""

    default_settle_seconds = DEFAULT_SETTLE_SECONDS

    def poll(
        self, connection: sqlite3.Connection, path: Path, offset: int, line_no: int
    ) -> Iterator[ReadItem]:
        """Yield parts with ``rowid > offset`` until the first one still being written."""
        for table, columns in _REQUIRED.items():
            missing = columns - table_columns(connection, table)
            if missing:
                detail = f"table {table} lacks {', '.join(sorted(missing))}: not a known OpenCode schema"
                yield from self.once(f"{path}:{table}", IngestError("schema_drift", detail), offset, line_no)
                return
        position = offset
        while True:
            rows = connection.execute(_PARTS, (position, _BATCH)).fetchall()
            if not rows:
                return
            for row in rows:
                item = self._item(connection, row, line_no + 1)
                if item is None:
                    return  # still being written: resume here next poll
                line_no += 1
                position = int(row[0])
                yield item

    def _item(self, connection: sqlite3.Connection, row: tuple[Any, ...], line_no: int) -> ReadItem | None:
        rowid, part_id, message_id, session_id, created, part_raw = row[:6]
        message_raw, message_updated, title, directory, parent_id, session_created = row[6:]
        previous = int(rowid) - 1  # an unreadable row is skipped, so its error resumes after it
        try:
            part = json.loads(part_raw)
            message = json.loads(message_raw) if message_raw is not None else None
        except (TypeError, ValueError) as exc:
            error = IngestError("malformed_row", f"part {part_id}: data is not JSON ({exc})")
            return ReadItem(None, error, previous, line_no, int(rowid), line_no)
        if not isinstance(part, dict) or (message is not None and not isinstance(message, dict)):
            error = IngestError("malformed_row", f"part {part_id}: data is not a JSON object")
            return ReadItem(None, error, previous, line_no, int(rowid), line_no)
        if not self._settled(part, message, created, message_updated):
            return None
        last_text = connection.execute(_LAST_TEXT, (message_id,)).fetchone()[0]
        data = {
            "record": PART_RECORD,
            "part": {"id": part_id, "message_id": message_id, "time_created": created, "data": part},
            "message": {"id": message_id, "data": message or {}},
            "session": {
                "id": session_id,
                "title": title,
                "directory": directory,
                "parent_id": parent_id,
                "time_created": session_created,
            },
            "last_text": last_text == rowid,
        }
        return ReadItem(RawRecord(data, line_no, int(rowid)), None, previous, line_no, int(rowid), line_no)

    def _settled(
        self, part: dict[str, Any], message: dict[str, Any] | None, created: Any, updated: Any
    ) -> bool:
        if message is not None:
            if message.get("role") == "user":
                return True
            if isinstance(message.get("time"), dict) and message["time"].get("completed") is not None:
                return True
            if message.get("finish") is not None or message.get("error") is not None:
                return True
        latest = max(v for v in (created, updated, 0) if isinstance(v, int | float))
        return self.clock() * 1000.0 - float(latest) > self.settle_seconds * 1000.0
