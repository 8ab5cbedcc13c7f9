"""Read Gemini CLI's chat files (``~/.gemini/tmp/<project>/chats/session-*.json``): one JSON document each.

The document ``{sessionId, projectHash, startTime, lastUpdated, summary, messages: [...]}`` is rewritten as the
session goes on. Position 0 is the session header, position ``i + 1`` is message ``i``; every message record also
carries the header (a summary written at the end reaches the adapter with the next message read). The newest
message is read again on the next pass (``SessionDocumentReader.reopen_last``): Gemini CLI adds its tool calls,
results and token counts after first writing it.
"""

from __future__ import annotations

from moraine.harnesses._shared.json_document import SessionDocumentReader

__all__ = ["HEADER_RECORD", "MESSAGE_RECORD", "GeminiChatReader"]

HEADER_RECORD = "gemini_session"
MESSAGE_RECORD = "gemini_message"


class GeminiChatReader(SessionDocumentReader):
    """Yield a chat file's header and messages after the saved position."""

    shape = "a Gemini CLI chat object"
    header_record, message_record = HEADER_RECORD, MESSAGE_RECORD
    header_keys = ("sessionId", "projectHash", "startTime", "lastUpdated", "summary", "kind")
