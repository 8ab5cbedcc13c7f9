"""Codex response items (what the model saw and said): messages, tool calls and outputs, reasoning."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from moraine.harnesses._shared.calls import recall_call, remember_call
from moraine.harnesses._shared.codex_format._codex_output import read_tool_output
from moraine.harnesses._shared.depth import depth_error
from moraine.harnesses._shared.codex_format._codex_record import CodexRecord, consume_mirror, user_text
from moraine.harnesses._shared.text import message_text, render_call
from moraine.harnesses._shared.fields import (
    as_list,
    as_str,
    canonical_tool_name,
    json_text,
    parse_json_string,
)
from moraine.harness_api.model import ContentFormat, EventType, IngestError

__all__ = ["ITEM_TYPES", "response_item"]

ITEM_TYPES = frozenset(
    {
        "message",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
        "web_search_call",
        "reasoning",
        "ghost_snapshot",
    }
)


def response_item(rec: CodexRecord, payload: dict[str, Any], legacy: bool = False) -> None:
    """Normalize one response item (``legacy``: written bare at the top level by old rollouts)."""
    record_type = "legacy" if legacy else "response_item"
    item_type = payload.get("type")
    if not isinstance(item_type, str):
        rec.out.append(IngestError("malformed_record", "codex response_item payload has no string 'type'"))
        return
    handler = _ITEM_HANDLERS.get(item_type)
    if handler is not None:
        handler(rec, payload, record_type)
    elif item_type == "ghost_snapshot":
        rec.event(EventType.SYSTEM, item_type, "ghost snapshot", record_type=record_type)
    else:
        text = message_text(payload) or json_text(payload)
        rec.event(EventType.UNKNOWN, item_type, text, record_type=record_type)


def _message(rec: CodexRecord, payload: dict[str, Any], record_type: str) -> None:
    role = rec.text_field(payload, "role", "message")
    text = message_text(payload.get("content"))
    phase = rec.text_field(payload, "phase", "message")
    was_dual = bool(rec.state.get("dual"))
    if role in ("user", "assistant") and consume_mirror(rec.state, role, [text]):
        return
    rec.state["dual"] = True
    provenance: dict[str, Any] = {"role": role} if role else {}
    if phase:
        provenance["phase"] = phase
    if "id" in payload:
        provenance["item_id"] = payload["id"]
    if role == "user":
        # In a rollout that mirrors messages, the user_message event that follows is the exact typed text.
        user_text(rec, text, record_type, "message", provenance, first_user=not was_dual)
    elif role == "assistant":
        rec.event(
            EventType.ASSISTANT_RESPONSE,
            "message",
            text,
            record_type=record_type,
            model=rec.model,
            is_final_answer=phase != "commentary",
            provenance=provenance,
        )
    elif role in ("developer", "system"):
        rec.event(EventType.SYSTEM, "message", text, record_type=record_type, provenance=provenance)
    else:
        rec.event(EventType.UNKNOWN, "message", text, record_type=record_type, provenance=provenance)


def _function_call(rec: CodexRecord, payload: dict[str, Any], record_type: str) -> None:
    item_type = str(payload["type"])
    name = rec.text_field(payload, "name", item_type)
    if "name" not in payload and item_type != "local_shell_call":
        rec.out.append(IngestError("invalid_field", f"codex {item_type} has no tool name"))
    call_id = rec.text_field(payload, "call_id", item_type) or as_str(payload.get("id"))
    if item_type == "local_shell_call":
        name = name or "local_shell"
        arguments = payload.get("action")
    elif item_type == "custom_tool_call":
        arguments = payload.get("input")
    else:
        recorded = payload.get("arguments")
        arguments = parse_json_string(recorded)
        if depth_error(arguments) is not None:  # keep an absurdly nested argument string as the text it is
            arguments = recorded
    _tool_call(rec, item_type, record_type, name, call_id, arguments, payload.get("status"))


def _web_search_call(rec: CodexRecord, payload: dict[str, Any], record_type: str) -> None:
    action = payload.get("action")
    call_id = as_str(payload.get("id")) or as_str(payload.get("call_id"))
    _tool_call(rec, "web_search_call", record_type, "web_search", call_id, action, payload.get("status"))


def _tool_call(
    rec: CodexRecord,
    item_type: str,
    record_type: str,
    name: str | None,
    call_id: str | None,
    arguments: Any,
    status: Any,
) -> None:
    tool_name, is_moraine = canonical_tool_name(name) if name else (None, False)
    remember_call(rec.state, call_id, name)
    provenance: dict[str, Any] = {"original_tool_name": name} if name != tool_name else {}
    if isinstance(status, str):
        provenance["status"] = status
    shown = (
        {k: v for k, v in arguments.items() if k != "type"}
        if item_type == "web_search_call" and isinstance(arguments, dict)
        else arguments
    )
    rec.event(
        EventType.TOOL_CALL,
        item_type,
        render_call(tool_name or "tool", shown),
        record_type=record_type,
        content_format=ContentFormat.TOOL_CALL,
        tool_name=tool_name,
        tool_call_id=call_id,
        arguments=arguments,
        model=rec.model,
        is_moraine_tool=is_moraine,
        provenance=provenance,
    )


def _tool_output(rec: CodexRecord, payload: dict[str, Any], record_type: str) -> None:
    item_type = str(payload["type"])
    call_id = rec.text_field(payload, "call_id", item_type)
    name = recall_call(rec.state, call_id)
    tool_name, is_moraine = canonical_tool_name(name) if name else (None, False)
    output = read_tool_output(payload.get("output"))
    provenance: dict[str, Any] = {"original_tool_name": name} if name != tool_name else {}
    provenance.update(output.details)
    rec.event(
        EventType.TOOL_RESPONSE,
        item_type,
        output.text,
        record_type=record_type,
        content_format=ContentFormat.TOOL_RESPONSE,
        tool_name=tool_name,
        tool_call_id=call_id,
        exit_code=output.exit_code,
        tool_error=output.tool_error,
        is_moraine_tool=is_moraine,
        provenance=provenance,
    )


def _reasoning(rec: CodexRecord, payload: dict[str, Any], record_type: str) -> None:
    summary = [message_text(part) for part in as_list(payload.get("summary"))]
    summary = [part for part in summary if part]
    readable = "\n".join(summary) or message_text(payload.get("content"))
    if consume_mirror(rec.state, "reasoning", summary or [readable]):
        return
    rec.state["dual"] = True
    opaque = rec.text_field(payload, "encrypted_content", "reasoning")
    provenance: dict[str, Any] = {"item_id": payload["id"]} if "id" in payload else {}
    if opaque and readable:
        provenance["summary_text"] = readable
    rec.event(
        EventType.REASONING,
        "reasoning",
        opaque or readable,
        record_type=record_type,
        content_format=ContentFormat.REASONING,
        encrypted=opaque is not None,
        model=rec.model,
        provenance=provenance,
    )


_ItemHandler = Callable[[CodexRecord, dict[str, Any], str], None]
_ITEM_HANDLERS: dict[str, _ItemHandler] = {
    "message": _message,
    "function_call": _function_call,
    "custom_tool_call": _function_call,
    "local_shell_call": _function_call,
    "web_search_call": _web_search_call,
    "function_call_output": _tool_output,
    "custom_tool_call_output": _tool_output,
    "reasoning": _reasoning,
}
