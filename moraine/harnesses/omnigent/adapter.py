"""Omnigent (source ``omnigent``): conversation items from ``chat.db`` -> normalized events.

Records come from ``chat_reader``. Item types (names, or the codes 1-11 newer builds store): ``message`` ``{role,
content: [{type: input_text|output_text, text}], is_meta, agent|model}`` (a user message opens a turn unless it is
meta: injected instructions, kept as system text; an assistant message is an answer, the turn's final one unless a
tool call follows it, since Omnigent records no end of turn); ``function_call`` ``{name, arguments (a JSON string),
call_id}``; ``function_call_output`` ``{call_id, output}``; ``reasoning`` ``{summary: [{text}]}``; ``compaction``
``{summary}``; ``error``, ``routing_decision``, ``slash_command``, ``terminal_command``, ``native_tool`` and
``resource_event`` as system text (their ``search_text``, or the error's message, or the command's name).
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses.omnigent.chat_reader import ITEM_RECORD
from moraine.harnesses._shared.held import Held, holding
from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared import fields
from moraine.harnesses._shared.fields import as_dict, as_int, as_list, as_str, read_timestamp
from moraine.harness_api.model import Emitted, EventType, IngestError, SessionInfo

__all__ = ["OmnigentAdapter"]

_CODES = {
    1: "message",
    2: "function_call",
    3: "function_call_output",
    4: "reasoning",
    5: "error",
    6: "compaction",
    7: "native_tool",
    8: "resource_event",
    9: "routing_decision",
    10: "slash_command",
    11: "terminal_command",
}


def _item(found: Held, ctx: StreamContext) -> list[Emitted]:
    item, conversation = found.item, found.holder
    out: list[Emitted] = []
    parent = as_str(conversation.get("parent"))
    if parent and ctx.state.get("parent") != [found.session, parent]:
        ctx.state["parent"] = [found.session, parent]
        out.append(SessionInfo(session=found.session, parent_session=parent))
    created = item.get("created_at") if item.get("created_at") is not None else conversation.get("started")
    timestamp = read_timestamp(created, out)
    name = _type_name(item.get("type"))
    base = RecordEvents(
        found.session,
        timestamp,
        as_str(conversation.get("cwd")),
        provenance={"item_type": name, "position": item.get("position")},
    )
    data = as_dict(item.get("data"))
    model = as_str(conversation.get("model"))
    if name == "message":
        out.extend(_message(data, base, model))
    elif name == "function_call":
        call_id = as_str(data.get("call_id"))
        out.append(
            base.tool_call(
                as_str(data.get("name")),
                call_id,
                fields.parse_json_string(data.get("arguments")),
                model,
                calls=ctx.state,
            )
        )
    elif name == "function_call_output":
        call_id = as_str(data.get("call_id"))
        out.append(
            base.canonical_response(
                recall_call(ctx.state, call_id), call_id, fields.output_text(data.get("output"))
            )
        )
    elif name == "reasoning":
        text = "\n".join(
            s["text"] for s in as_list(data.get("summary")) if isinstance(s, dict) and as_str(s.get("text"))
        )
        if text:
            out.append(base.reasoning(text, model))
    elif name == "compaction":
        out.append(base.event(EventType.COMPACTION, text=as_str(data.get("summary")) or ""))
    else:
        out.append(base.event(EventType.SYSTEM, text=_line(str(name), data, as_str(item.get("search_text")))))
    return out


def _type_name(kind: Any) -> str:
    """Return an item type's name (newer builds store a code)."""
    code = int(kind) if isinstance(kind, str) and kind.isdigit() else as_int(kind)
    return _CODES.get(code, str(kind)) if code is not None else str(kind)


def _message(data: dict[str, Any], base: RecordEvents, model: str | None) -> list[Emitted]:
    text = "\n".join(
        b["text"] for b in as_list(data.get("content")) if isinstance(b, dict) and as_str(b.get("text"))
    )
    role = data.get("role")
    if role == "user" and data.get("is_meta") is True:
        return [base.event(EventType.SYSTEM, text=text, provenance={"is_meta": True})]
    if role == "user":
        return [base.event(EventType.USER_INPUT, text=text, starts_turn=True)] if text else []
    if role == "assistant":
        if not text:
            return []
        agent = as_str(data.get("agent")) or as_str(data.get("model"))
        answer = base.answer(text, model, provenance={"agent": agent} if agent else {})
        answer.is_final_answer = True  # until a tool call follows it in the same turn
        return [answer]
    return [IngestError("unknown_record", f"Omnigent message with role {str(role)[:40]!r}")]


def _line(kind: str, data: dict[str, Any], search_text: str | None) -> str:
    if kind == "error" and as_str(data.get("message")):
        return f"[error] {data['message']}"
    if kind == "slash_command" and as_str(data.get("name")):
        return f"[{as_str(data.get('kind')) or 'command'}] {data['name']}"
    return f"[{kind}] {search_text}" if search_text else f"[{kind}]"


class OmnigentAdapter(TaggedAdapter):
    """Normalize the conversation items ``chat_reader`` reads."""

    harness = "omnigent"
    kinds = {ITEM_RECORD: holding("conversation", "item", "Omnigent item", _item)}
    untagged = "not an Omnigent conversation item"
