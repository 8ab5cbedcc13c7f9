"""Claude.ai data export conversations (``conversations.json``) -> normalized events.

A conversation is ``{uuid, name, created_at, updated_at, chat_messages: [...]}``; a message is ``{uuid, sender
(human | assistant), text, content: [blocks], created_at, attachments: [{file_name, extracted_content}]}`` with
blocks ``text``, ``thinking``, ``tool_use`` ``{id, name, input}`` and ``tool_result`` ``{tool_use_id, name,
content, is_error}``. A human message is a prompt (its attachments' extracted text included); an assistant
message's blocks are its reasoning, replies, tool calls and their results. Each turn's last reply is its answer.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.export import with_answers
from moraine.harnesses._shared.content_blocks import block_call, spoken_block
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.text import parts_text
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, output_text, parse_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo

__all__ = ["ClaudeAiAdapter"]


class ClaudeAiAdapter(ObjectAdapter):
    """Normalize the conversations of a Claude.ai export."""

    harness = "claude-ai"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the session and events of one conversation."""
        session = as_str(data.get("uuid"))
        messages = data.get("chat_messages")
        if session is None or not isinstance(messages, list):
            return [
                IngestError("malformed_record", "a Claude.ai conversation needs a uuid and chat_messages")
            ]
        started, _ = parse_timestamp(data.get("created_at"))
        calls: dict[str, Event] = {}  # call id and tool name -> the call
        events: list[Event] = []
        for message in messages:
            if isinstance(message, dict):
                events.extend(_message(message, session, calls))
        return [
            SessionInfo(session=session, title=as_str(data.get("name")), started_at=started),
            *with_answers(events),
        ]


def _message(message: dict[str, Any], session: str, calls: dict[str, Event]) -> list[Event]:
    timestamp, _ = parse_timestamp(message.get("created_at"))
    message_id = as_str(message.get("uuid")) or ""
    record = RecordEvents(session, timestamp, provenance={"uuid": message_id})
    blocks = [as_dict(block) for block in as_list(message.get("content"))]
    if message.get("sender") == "human":
        attached = [
            f"[Attachment: {a.get('file_name')}]\n{a['extracted_content']}"
            if a.get("file_name")
            else a["extracted_content"]
            for a in map(as_dict, as_list(message.get("attachments")))
            if as_str(a.get("extracted_content"))
        ]
        said = parts_text(blocks, "text") or as_str(message.get("text")) or ""
        text = "\n\n".join(part for part in (said, *attached) if part)
        return [record.event(EventType.USER_INPUT, text=text, starts_turn=bool(text.strip()))] if text else []
    if not blocks and as_str(message.get("text")):
        return [record.answer(message["text"])]
    events: list[Event] = []
    for index, block in enumerate(blocks):
        kind = block.get("type")
        spoken = spoken_block(block, record)
        if spoken is not None:
            events.append(spoken)
        elif kind == "tool_use":
            call = block_call(block, record, f"{message_id}:{index}")
            calls[call.tool_call_id or ""] = calls[call.tool_name or ""] = call
            events.append(call)
        elif kind == "tool_result":
            answered = calls.get(as_str(block.get("tool_use_id")) or "") or calls.get(
                as_str(block.get("name")) or ""
            )
            text = output_text(block.get("content")) if block.get("content") is not None else ""
            error = block.get("is_error") if isinstance(block.get("is_error"), bool) else None
            if answered is not None:
                events.append(record.response_to(answered, text, tool_error=error))
            else:
                events.append(
                    record.canonical_response(as_str(block.get("name")), None, text, tool_error=error)
                )
    return events
