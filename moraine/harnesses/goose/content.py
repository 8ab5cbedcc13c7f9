"""Goose's message content (``[{type: text|thinking|toolRequest|toolResponse|...}, ...]``) -> normalized events.

Both of Goose's stores (the JSONL session files and the ``sessions.db`` SQLite store) keep a message as a role and
a list of typed content blocks, serialized from the same Rust ``Message`` type:

- ``text`` ``{text}``; ``thinking`` ``{thinking, signature}``; ``redactedThinking`` ``{data}`` (opaque);
- ``toolRequest`` / ``frontendToolRequest`` ``{id, toolCall: {status, value: {name, arguments}}}`` (a failed parse
  has ``status: error`` and ``error``);
- ``toolResponse`` ``{id, toolResult: {status, value}}``: ``value`` is a list of content items in older releases and
  ``{content: [...], isError}`` in newer ones; ``status: error`` carries ``error``;
- ``image``, and notices (``toolConfirmationRequest``, ``actionRequired``, ``systemNotification``) whose text is
  kept as system text.

A user message of text is real input and opens a turn; a user message of tool responses is not. An assistant
message that requests no tool ends the turn with its last text as the answer.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.content_blocks import spoken_block
from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.events import RecordEvents, end_message
from moraine.harnesses._shared.fields import as_dict, as_str, output_text
from moraine.harness_api.model import Emitted, Event, EventType, IngestError

__all__ = ["message_events"]

_CALLS = frozenset({"toolRequest", "frontendToolRequest"})
_NOTICES = frozenset({"toolConfirmationRequest", "actionRequired", "systemNotification"})
_NOTICE_KEYS = ("text", "message", "prompt", "reason")


def message_events(
    role: Any, content: Any, base: RecordEvents, model: str | None, state: dict[str, Any]
) -> list[Emitted]:
    """Return the events of one Goose message (``role`` user or assistant, ``content`` its block list)."""
    if not isinstance(content, list):
        return [IngestError("malformed_record", "Goose message content is not a list of blocks")]
    blocks = [block for block in content if isinstance(block, dict)]
    if role == "user":
        return _user(blocks, base, state)
    if role == "assistant":
        return end_message(_assistant(blocks, base, model, state))
    return [IngestError("unknown_record", f"Goose message with role {str(role)[:40]!r}")]


def _user(blocks: list[dict[str, Any]], base: RecordEvents, state: dict[str, Any]) -> list[Emitted]:
    out: list[Emitted] = []
    texts: list[str] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "toolResponse":
            out.append(_response(block, base, state))
        elif kind == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif kind == "image":
            texts.append("[image]")
        elif kind in _NOTICES:
            out.append(base.event(EventType.SYSTEM, text=_notice(block), provenance={"block": kind}))
    text = "\n".join(texts).strip()
    if text:
        out.insert(0, base.event(EventType.USER_INPUT, text=text, starts_turn=True))
    return out


def _assistant(
    blocks: list[dict[str, Any]], base: RecordEvents, model: str | None, state: dict[str, Any]
) -> list[Event]:
    events: list[Event] = []
    for block in blocks:
        kind = block.get("type")
        said = spoken_block(block, base, model)
        if said is not None:
            events.append(said)
        elif kind == "redactedThinking" and as_str(block.get("data")):
            events.append(base.reasoning(block["data"], model, encrypted=True))
        elif kind in _CALLS:
            events.append(_call(block, base, model, state))
        elif kind in _NOTICES:
            events.append(base.event(EventType.SYSTEM, text=_notice(block), provenance={"block": kind}))
    return events


def _call(block: dict[str, Any], base: RecordEvents, model: str | None, state: dict[str, Any]) -> Event:
    envelope = as_dict(block.get("toolCall"))
    value = as_dict(envelope.get("value"))
    status = as_str(envelope.get("status"))
    extra = {"status": status} if status and status != "success" else {}
    if status == "error":
        extra["error"] = output_text(envelope.get("error"))
    return base.tool_call(
        as_str(value.get("name")), as_str(block.get("id")), value.get("arguments"), model, extra, state
    )


def _response(block: dict[str, Any], base: RecordEvents, state: dict[str, Any]) -> Event:
    call_id = as_str(block.get("id"))
    envelope = as_dict(block.get("toolResult"))
    status = as_str(envelope.get("status"))
    value = envelope.get("value")
    failed = status == "error"
    if failed:
        text = output_text(envelope.get("error"))
    elif isinstance(value, dict):
        text = output_text(value.get("content"))
        failed = value.get("isError") is True
    else:
        text = output_text(value) if value is not None else ""
    return base.canonical_response(
        recall_call(state, call_id), call_id, text, tool_error=failed if status else None
    )


def _notice(block: dict[str, Any]) -> str:
    for key in _NOTICE_KEYS:
        value = block.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
        if value is not None and not isinstance(value, str):
            return output_text(value)
    return ""
