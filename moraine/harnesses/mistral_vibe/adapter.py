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
from moraine.harnesses._shared.held import Held, holding
from moraine.harnesses._shared.chat import chat_message_events
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harnesses._shared.text import parts_text
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_str, parse_timestamp
from moraine.harness_api.model import Emitted, EventType, SessionInfo

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
    model = as_str(message.get("model")) or as_str(session.get("model"))
    out.extend(
        chat_message_events(message, content, "reasoning_content", model, record, ctx.state, "Vibe message")
    )
    return out


class MistralVibeAdapter(TaggedAdapter):
    """Normalize the session messages ``session_reader`` reads."""

    harness = "mistral-vibe"
    kinds = {MESSAGE_RECORD: holding("session", "message", "Vibe message", _message)}
    untagged = "not a Mistral Vibe message"
