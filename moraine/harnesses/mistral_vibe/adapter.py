"""Mistral Vibe (source ``mistral-vibe``): session messages -> normalized events.

Records come from ``session_reader``: chat-completions messages ``{role: user|assistant|tool|system, content,
reasoning_content, tool_calls: [{id, function: {name, arguments}}], tool_call_id, name, message_id, injected,
model}`` with the session's metadata. A user message opens a turn unless Vibe injected it (then it is system text);
an assistant message gives its reasoning, text and tool calls, and one that calls no tool ends the turn with its
text as the answer; a tool message is the response to its call. Messages carry no time: events take the session's
start.
"""

from __future__ import annotations


from moraine.harnesses.mistral_vibe.session_reader import MESSAGE_RECORD
from moraine.ingest.adapters._blocks import Held, holding
from moraine.ingest.adapters._chat import chat_event, function_call, said, tool_calls
from moraine.ingest.adapters._events import RecordEvents
from moraine.ingest.adapters._records import TaggedAdapter
from moraine.ingest.adapters._text import parts_text
from moraine.ingest.adapters.base import StreamContext
from moraine.ingest.adapters.fields import as_str, parse_timestamp
from moraine.ingest.model import Emitted, EventType, IngestError, SessionInfo

__all__ = ["MistralVibeAdapter"]


def _message(found: Held, ctx: StreamContext) -> list[Emitted]:
    message, session = found.item, found.holder
    out: list[Emitted] = []
    parent = as_str(session.get("parent"))
    if parent and "parent" not in ctx.state:
        ctx.state["parent"] = parent
        out.append(SessionInfo(session=found.session, parent_session=parent))
    message_id = as_str(message.get("message_id"))
    # Vibe records no per-message times: every event carries the session's start, the closest recorded time.
    started, _ = parse_timestamp(session.get("started"))
    record = RecordEvents(
        found.session,
        started,
        as_str(session.get("cwd")),
        provenance={"message_id": message_id} if message_id else {},
    )
    content = parts_text(message.get("content"))
    if message.get("role") == "user" and message.get("injected") is True:
        out.append(record.event(EventType.SYSTEM, text=content, provenance={"injected": True}))
        return out
    event = chat_event(message, content, record, ctx.state, spelling=False)
    if event is not None:
        out.append(event)
    elif message.get("role") == "assistant":
        model = as_str(message.get("model")) or as_str(session.get("model"))
        calls = tool_calls(message)
        out.extend(said(message, "reasoning_content", content, model, record, not calls))
        out.extend(record.tool_call(*function_call(call), model, calls=ctx.state) for call in calls)
    else:
        out.append(IngestError("unknown_record", f"Vibe message with role {str(message.get('role'))[:40]!r}"))
    return out


class MistralVibeAdapter(TaggedAdapter):
    """Normalize the session messages ``session_reader`` reads."""

    harness = "mistral-vibe"
    kinds = {MESSAGE_RECORD: holding("session", "message", "Vibe message", _message)}
    untagged = "not a Mistral Vibe message"
