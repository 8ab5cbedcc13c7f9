"""Read Hermes live session files (``~/.hermes/sessions/session_*.json``), which Hermes rewrites in place.

The whole file is one JSON object ``{session_id, model, session_start, last_updated, messages: [...]}`` that grows
as the session goes on. Positions count records: position 0 is the session header, position ``i + 1`` is message
``i``. Each pass re-parses the file and yields only the records after the saved position, so a rewrite emits
exactly the messages that are new. A version of the file that is not valid JSON (caught mid-write, or broken)
yields no records and is reported once; the position stays, so the next version is read from the same place.
"""

from __future__ import annotations

from moraine.harnesses._shared.json_document import MAX_FILE_BYTES, SessionDocumentReader

__all__ = ["HEADER_RECORD", "MAX_FILE_BYTES", "MESSAGE_RECORD", "HermesSessionReader"]

HEADER_RECORD = "hermes_session"
MESSAGE_RECORD = "hermes_message"


class HermesSessionReader(SessionDocumentReader):
    """Yield a Hermes session file's header and messages after the saved position."""

    reopen_last = False  # Hermes writes a message whole
    shape = "a Hermes session object"
    header_record, message_record = HEADER_RECORD, MESSAGE_RECORD
    header_keys = ("session_id", "model", "platform", "base_url", "session_start", "last_updated", "title")
