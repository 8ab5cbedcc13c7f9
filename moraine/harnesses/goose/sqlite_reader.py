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

from moraine.harnesses._shared.bounded import TooLarge, check_json_cost
from moraine.harness_api.model import IngestError, RawRecord
from moraine.harness_api.reader import ReadItem
from moraine.harnesses._shared.depth import loads
from moraine.harnesses._shared.sqlite_rows import RowPoller

__all__ = ["MESSAGE_RECORD", "GooseSqliteReader"]

MESSAGE_RECORD = "goose_message"
_REQUIRED = {
    "sessions": {"id", "working_dir", "created_at"},
    "messages": {"id", "session_id", "role", "content_json", "created_timestamp"},
}
# Bounds on what one message row may cost. Every message is read with its session's row, so a session's text is
# cut in SQL (a 5 MB store of one session with a 1.5 MB description and 1,000 messages took 1.9 GB: the description
# once per row); what is kept of it is no more than ingest keeps of a title (4,000 characters) or reads of a model
# configuration. A message's content is read when it is at most MAX_CONTENT_BYTES and would take at most
# MAX_CONTENT_COST once parsed (``moraine.harnesses._shared.bounded``); a bigger one is reported, not read.
MAX_CONTENT_BYTES = 6 * 1024 * 1024
MAX_CONTENT_COST = 16 * 1024 * 1024
_SESSION_TEXT_CHARS = 4000
_SESSION_JSON_CHARS = 16_384
_BOUNDED = {
    "name": f"substr(s.name, 1, {_SESSION_TEXT_CHARS})",
    "description": f"substr(s.description, 1, {_SESSION_TEXT_CHARS})",
    "working_dir": f"substr(s.working_dir, 1, {_SESSION_TEXT_CHARS})",
    "model_config_json": (
        f"CASE WHEN length(s.model_config_json) <= {_SESSION_JSON_CHARS} THEN s.model_config_json END"
    ),
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
        _BOUNDED.get(column, f"s.{column}") if column in session_columns else "NULL"
        for column in _SESSION_COLUMNS.values()
    )
    metadata = (
        f"CASE WHEN length(m.metadata_json) <= {_SESSION_JSON_CHARS} THEN m.metadata_json END"
        if has_metadata
        else "NULL"
    )
    content = f"CASE WHEN length(CAST(m.content_json AS BLOB)) <= {MAX_CONTENT_BYTES} THEN m.content_json END"
    return (
        f"SELECT m.id, m.session_id, m.role, {content}, m.created_timestamp, {metadata}, "
        f"length(CAST(m.content_json AS BLOB)), {picked} "
        "FROM messages AS m LEFT JOIN sessions AS s ON s.id = m.session_id "
        "WHERE m.id > ? ORDER BY m.id LIMIT ?"
    )


def _item(row: tuple[Any, ...], previous: int, line_no: int) -> ReadItem:
    message_id, session_id, role, content_raw, created, metadata_raw, size = row[:7]
    try:
        if content_raw is None and size:
            raise TooLarge(
                f"is {size / (1 << 20):.0f} MiB, over the {MAX_CONTENT_BYTES >> 20} MiB one message may be"
            )
        if isinstance(content_raw, str | bytes):
            check_json_cost(content_raw, MAX_CONTENT_COST)
        content = loads(content_raw)
        metadata = loads(metadata_raw) if metadata_raw else {}
    except TooLarge as exc:
        error = IngestError("too_large", f"message {message_id}: its content {exc}; not read")
        return ReadItem(None, error, previous, line_no, int(message_id), line_no)
    except (TypeError, ValueError) as exc:
        error = IngestError("malformed_row", f"message {message_id}: content is not readable JSON ({exc})")
        return ReadItem(None, error, previous, line_no, int(message_id), line_no)
    session = dict(zip(_SESSION_COLUMNS, row[7:], strict=True))
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
