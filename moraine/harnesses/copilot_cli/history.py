"""Copilot CLI's early session files (``~/.copilot/history-session-state/session_<id>_<ms>.json``).

Before the event logs, a session was saved whole as ``{sessionId, startTime, chatMessages: [...]}`` with
chat-completions messages (``{role, content, tool_calls: [{id, function: {name, arguments}}], tool_call_id,
name}``). The reader yields the header, then one record per message (the file is saved whole: messages are
read once, by position); the adapter reads them with the shared chat-message helpers. Messages carry no time:
each event takes the session's ``startTime`` (said in its provenance). An assistant message without tool calls
is the turn's answer.

Some early files keep the conversation only in ``timeline`` (``chatMessages`` empty): entries ``{id, timestamp,
type, ...}`` of type ``user`` (``text``, and ``expandedText`` with mentions expanded), ``copilot`` (the reply's
``text``), ``tool_call_requested`` (``callId``, ``name``, ``arguments``), ``tool_call_completed`` (``callId``,
``name``, ``result: {type: success | error | ..., log}``) and ``info`` (a notice). Such a file is read from its
timeline, each entry at its own time; its newest reply stays the turn's answer unless a tool call follows it.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.chat import chat_event, function_call, said, tool_calls
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.text import parts_text
from moraine.harness_api.adapter import StreamContext
from pathlib import Path

from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.fields import (
    as_dict,
    as_str,
    output_text,
    parse_json_string,
    parse_timestamp,
    read_timestamp,
)
from moraine.harness_api.model import Emitted, EventType, IngestError, SessionInfo
from moraine.harnesses._shared.json_document import NotTheDocument, SessionDocumentReader

__all__ = ["HEADER_RECORD", "MESSAGE_RECORD", "TIMELINE_RECORD", "CopilotHistoryReader", "history_record"]

HEADER_RECORD = "copilot_history_session"
MESSAGE_RECORD = "copilot_history_message"
TIMELINE_RECORD = "copilot_history_timeline"


class CopilotHistoryReader(SessionDocumentReader):
    """Yield an early Copilot CLI session file's header and chat messages after the saved position."""

    reopen_last = False
    shape = "an early Copilot CLI session"
    header_record, message_record = HEADER_RECORD, MESSAGE_RECORD
    header_keys = ("sessionId", "startTime")
    messages_key = "chatMessages"

    def records(self, document: Any, path: Path) -> list[dict[str, Any]]:
        """Return the header and the chat messages, or the timeline's entries when there are no chat messages."""
        if not isinstance(document, dict) or document.get(self.messages_key) or not document.get("timeline"):
            return super().records(document, path)
        timeline = document["timeline"]
        if not isinstance(timeline, list):
            raise NotTheDocument("a timeline that is not a list")
        records = super().records({**document, self.messages_key: []}, path)
        header = records[0]["session"]
        records.extend(
            {"record": TIMELINE_RECORD, "session": header, "index": index, "entry": entry}
            for index, entry in enumerate(timeline)
        )
        return records


def history_record(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    """Return what one record of an early session file says (its header, or one chat message)."""
    header = as_dict(data.get("session"))
    session = as_str(header.get("sessionId")) or ctx.path.stem
    started, _ = parse_timestamp(header.get("startTime"))
    if data["record"] == HEADER_RECORD:
        return [SessionInfo(session=session, started_at=started)]
    if data["record"] == TIMELINE_RECORD:
        return _timeline_entry(data, session, ctx)
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


def _timeline_entry(data: dict[str, Any], session: str, ctx: StreamContext) -> list[Emitted]:
    entry = data.get("entry")
    if not isinstance(entry, dict):
        return [IngestError("malformed_record", f"timeline entry {data.get('index')} is not an object")]
    out: list[Emitted] = []
    timestamp = read_timestamp(entry.get("timestamp"), out)
    kind = entry.get("type")
    provenance = {"timeline_index": data.get("index"), "entry_type": kind, "id": as_str(entry.get("id"))}
    record = RecordEvents(session, timestamp, provenance=provenance)
    text = as_str(entry.get("text")) or ""
    if kind == "user":
        typed = text or as_str(entry.get("expandedText")) or ""
        out.append(record.event(EventType.USER_INPUT, text=typed, starts_turn=bool(typed.strip())))
    elif kind == "copilot":
        if text:
            answer = record.answer(text)
            answer.is_final_answer = True  # the turn's answer unless a tool call follows (the turn decides)
            out.append(answer)
    elif kind == "tool_call_requested":
        arguments = parse_json_string(entry.get("arguments"))
        out.append(
            record.tool_call(
                as_str(entry.get("name")), as_str(entry.get("callId")), arguments, calls=ctx.state
            )
        )
    elif kind == "tool_call_completed":
        call_id = as_str(entry.get("callId"))
        result = as_dict(entry.get("result"))
        status = as_str(result.get("type"))
        name = as_str(entry.get("name")) or recall_call(ctx.state, call_id)
        log = result.get("log")
        response = output_text(log) if log is not None else ""
        failed = status != "success" if status else None
        out.append(record.canonical_response(name, call_id, response, tool_error=failed))
    elif kind == "info":
        if text:
            out.append(record.event(EventType.SYSTEM, text=text))
    else:
        out.append(IngestError("unknown_record", f"timeline entry of type {str(kind)[:40]!r}"))
    return out
