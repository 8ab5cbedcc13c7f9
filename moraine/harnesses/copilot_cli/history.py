"""Copilot CLI's early session files (``~/.copilot/history-session-state/session_<id>_<ms>.json``).

Before the event logs, a session was saved whole as ``{sessionId, startTime, chatMessages: [...]}`` with
chat-completions messages (``{role, content, tool_calls: [{id, function: {name, arguments}}], tool_call_id,
name}``). The reader yields the header, then one record per message (the file is saved whole: messages are
read once, by position); the adapter reads them with the shared chat-message helpers. Messages carry no time:
each event takes the session's ``startTime`` (said in its provenance). An assistant message without tool calls
is the turn's answer.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.chat import chat_event, function_call, said, tool_calls
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.text import parts_text
from moraine.harnesses._shared.base import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_str, parse_timestamp
from moraine.ingest.model import Emitted, IngestError, SessionInfo
from moraine.harnesses._shared.json_document import SessionDocumentReader

__all__ = ["HEADER_RECORD", "MESSAGE_RECORD", "CopilotHistoryReader", "history_record"]

HEADER_RECORD = "copilot_history_session"
MESSAGE_RECORD = "copilot_history_message"


class CopilotHistoryReader(SessionDocumentReader):
    """Yield an early Copilot CLI session file's header and chat messages after the saved position."""

    reopen_last = False
    shape = "an early Copilot CLI session"
    header_record, message_record = HEADER_RECORD, MESSAGE_RECORD
    header_keys = ("sessionId", "startTime")
    messages_key = "chatMessages"


def history_record(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    """Return what one record of an early session file says (its header, or one chat message)."""
    header = as_dict(data.get("session"))
    session = as_str(header.get("sessionId")) or ctx.path.stem
    started, _ = parse_timestamp(header.get("startTime"))
    if data["record"] == HEADER_RECORD:
        return [SessionInfo(session=session, started_at=started)]
    message = data.get("message")
    if not isinstance(message, dict):
        return [IngestError("malformed_record", f"chat message {data.get('index')} is not an object")]
    source = {"timestamp_source": "session_start"} if started else {}
    record = RecordEvents(session, started, provenance={"message_index": data.get("index"), **source})
    content = parts_text(message.get("content"))
    event = chat_event(message, content, record, ctx.state, spelling=True)
    if event is not None:
        return [event]
    if message.get("role") != "assistant":
        return [IngestError("unknown_record", f"chat message role {str(message.get('role'))[:40]!r}")]
    calls = tool_calls(message)
    events = said(message, "reasoning", content, None, record, not calls)
    events.extend(record.tool_call(*function_call(call), calls=ctx.state) for call in calls)
    return list(events)
