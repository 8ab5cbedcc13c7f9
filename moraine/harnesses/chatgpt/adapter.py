"""ChatGPT data export conversations (``conversations.json``) -> normalized events.

A conversation is ``{conversation_id | id, title, create_time, current_node, mapping: {node id: {parent,
children, message}}}``: a tree of messages whose branch ending at ``current_node`` is the conversation as last
shown. A message is ``{id, author: {role, name}, create_time, recipient, content: {content_type, parts | text |
thoughts}, metadata: {model_slug, is_visually_hidden_from_conversation}}``. User messages are prompts; an
assistant message to ``recipient`` other than ``all`` calls that tool (its text is the call's input, code for
``python``), a ``thoughts`` message is reasoning, other assistant messages are replies; a ``tool`` message is the
result of the last call to its author's tool. Hidden messages (system context) are left out. Each turn's last
reply is its answer. Tool calls have no ids in an export: a call is named by its message id.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from moraine.harnesses._shared.export import with_answers
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, epoch_to_datetime, parse_json_string
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo

__all__ = ["ChatGptAdapter"]

_MAX_NODES = 100_000


class ChatGptAdapter(ObjectAdapter):
    """Normalize the conversations of a ChatGPT export."""

    harness = "chatgpt"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the session and events of one conversation."""
        session = as_str(data.get("conversation_id")) or as_str(data.get("id"))
        mapping = data.get("mapping")
        if session is None or not isinstance(mapping, dict):
            return [IngestError("malformed_record", "a ChatGPT conversation needs an id and a mapping")]
        info = SessionInfo(
            session=session, title=as_str(data.get("title")), started_at=_time(data.get("create_time"))
        )
        calls: dict[str, Event] = {}  # tool name -> its last call
        events: list[Event] = []
        for message in _branch(mapping, as_str(data.get("current_node"))):
            events.extend(_message(message, session, calls))
        return [info, *with_answers(events)]


def _time(value: Any) -> datetime | None:
    """Return the instant of an export's ``create_time`` (Unix seconds; absent or null: None)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return epoch_to_datetime(float(value))


def _branch(mapping: dict[str, Any], leaf: str | None) -> list[dict[str, Any]]:
    """Return the messages from the root to ``leaf``, oldest first (a cycle or missing node ends the walk)."""
    chain: list[dict[str, Any]] = []
    seen: set[str] = set()
    node_id = leaf
    while node_id and node_id not in seen and len(seen) < _MAX_NODES:
        seen.add(node_id)
        node = as_dict(mapping.get(node_id))
        message = node.get("message")
        if isinstance(message, dict):
            chain.append(message)
        node_id = as_str(node.get("parent"))
    return chain[::-1]


def _text(content: dict[str, Any]) -> str:
    parts = []
    for part in as_list(content.get("parts")):
        if isinstance(part, str) and part:
            parts.append(part)
        elif isinstance(part, dict):
            parts.append(as_str(part.get("text")) or ("[image]" if "asset_pointer" in part else ""))
    text = "\n".join(part for part in parts if part)
    return text or as_str(content.get("text")) or as_str(content.get("result")) or ""


def _message(message: dict[str, Any], session: str, calls: dict[str, Event]) -> list[Event]:
    metadata = as_dict(message.get("metadata"))
    if metadata.get("is_visually_hidden_from_conversation"):
        return []
    author = as_dict(message.get("author"))
    role = author.get("role")
    content = as_dict(message.get("content"))
    kind = as_str(content.get("content_type")) or "text"
    record = RecordEvents(
        session, _time(message.get("create_time")), provenance={"id": message.get("id"), "content_type": kind}
    )
    model = as_str(metadata.get("model_slug"))
    text = _text(content)
    recipient = as_str(message.get("recipient")) or "all"
    if role == "user":
        return [record.event(EventType.USER_INPUT, text=text, starts_turn=bool(text.strip()))] if text else []
    if role == "assistant" and recipient != "all":
        arguments = {"code": text} if kind == "code" else parse_json_string(text)
        call = record.tool_call(recipient, as_str(message.get("id")), arguments, model)
        calls[recipient] = call
        return [call]
    if role == "assistant" and kind == "thoughts":
        thoughts = [as_str(as_dict(t).get("content")) for t in as_list(content.get("thoughts"))]
        reasoning = "\n\n".join(t for t in thoughts if t)
        return [record.reasoning(reasoning, model)] if reasoning else []
    if role == "assistant" and kind != "reasoning_recap" and text:
        return [record.answer(text, model)]
    if role == "tool":
        name = as_str(author.get("name")) or "tool"
        answered = calls.get(name) or calls.get(name.split(".")[0])
        if answered is not None:
            return [record.response_to(answered, text)]
        return [record.canonical_response(name, None, text)]
    if role == "system" and text:
        return [record.event(EventType.SYSTEM, text=text)]
    return []
