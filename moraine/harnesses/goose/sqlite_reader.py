"""Read Goose's SQLite store (``~/.local/share/goose/sessions/sessions.db``, Goose 1.10 and later) one message a record.

The store keeps ``sessions`` (``id``, ``name``, ``description``, ``working_dir``, ``created_at``,
``model_config_json``, ``parent_session_id``, ...) and ``messages`` (``id`` autoincrement, ``session_id``, ``role``,
``content_json``, ``created_timestamp`` in seconds, ``metadata_json``). Messages are written whole, so this reader
polls read-only and yields each message after the saved ``messages.id`` joined with its session row. Columns that
older schemas lack are read as empty; a store without the columns every schema has is reported once, as is an
unreadable row (which is then skipped).
"""

from __future__ import annotations

from typing import Any

from moraine.ingest.model import IngestError, RawRecord
from moraine.ingest.reader import ReadItem
from moraine.harnesses._shared.depth import loads
from moraine.harnesses._shared.sqlite_rows import RowPoller

__all__ = ["MESSAGE_RECORD", "GooseSqliteReader"]

MESSAGE_RECORD = "goose_message"
_REQUIRED = {
    "sessions": {"id", "working_dir", "created_at"},
    "messages": {"id", "session_id", "role", "content_json", "created_timestamp"},
}
# Session columns read when the schema has them (older stores lack some): key in the record -> column.
_SESSION_COLUMNS = {
    "name": "name",
    "description": "description",
    "working_dir": "working_dir",
    "created_at": "created_at",
    "model_config": "model_config_json",
    "parent": "parent_session_id",
    "type": "session_type",
}


class GooseSqliteReader(RowPoller):
    """Poll a Goose ``sessions.db`` read-only; yield its messages after the saved ``messages.id``."""

    required = _REQUIRED
    what = "Goose"

    def query(self, columns: dict[str, set[str]]) -> str:
        """Return the query of the messages after an id, with their session rows."""
        return _query(columns["sessions"], "metadata_json" in columns["messages"])

    def item(self, row: tuple[Any, ...], previous: int, line_no: int) -> ReadItem:
        """Return the record of one message row."""
        return _item(row, previous, line_no)


def _query(session_columns: set[str], has_metadata: bool) -> str:
    picked = ", ".join(
        f"s.{column}" if column in session_columns else "NULL" for column in _SESSION_COLUMNS.values()
    )
    metadata = "m.metadata_json" if has_metadata else "NULL"
    return (
        f"SELECT m.id, m.session_id, m.role, m.content_json, m.created_timestamp, {metadata}, {picked} "
        "FROM messages AS m LEFT JOIN sessions AS s ON s.id = m.session_id "
        "WHERE m.id > ? ORDER BY m.id LIMIT ?"
    )


def _item(row: tuple[Any, ...], previous: int, line_no: int) -> ReadItem:
    message_id, session_id, role, content_raw, created, metadata_raw = row[:6]
    try:
        content = loads(content_raw)
        metadata = loads(metadata_raw) if metadata_raw else {}
    except (TypeError, ValueError) as exc:
        error = IngestError("malformed_row", f"message {message_id}: content is not readable JSON ({exc})")
        return ReadItem(None, error, previous, line_no, int(message_id), line_no)
    session = dict(zip(_SESSION_COLUMNS, row[6:], strict=True))
    session["id"] = session_id
    data = {
        "record": MESSAGE_RECORD,
        "message": {
            "id": message_id,
            "role": role,
            "content": content,
            "created": created,
            "metadata": metadata if isinstance(metadata, dict) else {},
        },
        "session": session,
    }
    return ReadItem(
        RawRecord(data, line_no, int(message_id)), None, previous, line_no, int(message_id), line_no
    )
