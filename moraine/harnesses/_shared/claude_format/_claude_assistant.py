"""Claude Code assistant records: text (final answers, terminal stops), thinking, tool use, server tool results."""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.calls import recall_call, remember_call
from moraine.harnesses._shared.claude_format._claude_record import SUBAGENT_TOOLS, ClaudeRecord
from moraine.harnesses._shared.text import message_text, render_call
from moraine.harnesses._shared.fields import as_str, canonical_tool_name, json_text
from moraine.harnesses._shared.usage import read_usage
from moraine.harness_api.model import ContentFormat, Event, EventType, IngestError, SessionInfo, TerminalKind

__all__ = ["assistant_record"]

_CALL_BLOCKS = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})

_NOT_TERMINAL_STOPS = frozenset({"tool_use", "pause_turn"})


def assistant_record(rec: ClaudeRecord) -> None:
    """Normalize an assistant record: one event per content block, flagging its final answer and terminal stop."""
    message = rec.message()
    if message is None:
        return
    model = rec.text("model", message)
    if model == "<synthetic>":
        model = None
    elif model and not rec.inline_sidechain and model != rec.state.session_value(rec.session, "model"):
        rec.state.set_session_value(rec.session, "model", model)
        rec.out.append(SessionInfo(session=rec.session, model=model))
    stop = rec.text("stop_reason", message)
    if rec.data.get("isApiErrorMessage") is True:
        rec.event(
            EventType.SYSTEM,
            "api_error",
            message_text(message.get("content")),
            terminal=not rec.inline_sidechain,
            terminal_kind=None if rec.inline_sidechain else TerminalKind.CRASHED,
            provenance={"api_error": True},
        )
        return
    content = message.get("content")
    if isinstance(content, str):
        blocks: list[Any] = [{"type": "text", "text": content}]
    elif isinstance(content, list):
        blocks = content
    else:
        rec.out.append(IngestError("invalid_field", "claude-code assistant message.content is not a list"))
        return
    types = [_block_type(block) for block in blocks]
    last_call = max((i for i, t in enumerate(types) if t in _CALL_BLOCKS), default=-1)
    final = max((i for i, t in enumerate(types) if t == "text"), default=-1)
    candidate = final > last_call and stop != "tool_use" and not rec.inline_sidechain
    ends = stop is not None and stop not in _NOT_TERMINAL_STOPS and not rec.inline_sidechain
    emitted: list[Event] = []
    for index, (block, block_type) in enumerate(zip(blocks, types, strict=True)):
        event = _assistant_block(rec, block, block_type, model, is_final=candidate and index == final)
        if event is not None:
            emitted.append(event)
    _attach_usage(rec, message, emitted)
    if ends and emitted:
        target = next((e for e in emitted if e.is_final_answer), emitted[-1])
        target.terminal = True
        target.terminal_kind = TerminalKind.STOPPED if stop == "max_tokens" else TerminalKind.FINAL_RESPONSE
        target.provenance["stop_reason"] = stop
        rec.state.set_session_value(rec.session, "turn_end", target.terminal_kind.value)


def _attach_usage(rec: ClaudeRecord, message: dict[str, Any], emitted: list[Event]) -> None:
    """Put ``message.usage`` on the record's first event, once per API message: Claude Code writes each content
    block of one response as its own record, repeating the response's usage on each."""
    usage = read_usage(
        message.get("usage"),
        input="input_tokens",
        output="output_tokens",
        cache_read="cache_read_input_tokens",
        cache_write="cache_creation_input_tokens",
    )
    message_id = as_str(message.get("id"))
    if usage is None or not emitted:
        return
    if message_id is not None and message_id == rec.state.session_value(rec.session, "usage_message"):
        return
    emitted[0].usage = usage
    if message_id is not None:
        rec.state.set_session_value(rec.session, "usage_message", message_id)


def _block_type(block: Any) -> str | None:
    kind = block.get("type") if isinstance(block, dict) else None
    return kind if isinstance(kind, str) else None


def _assistant_block(
    rec: ClaudeRecord, block: Any, block_type: str | None, model: str | None, *, is_final: bool
) -> Event | None:
    if not isinstance(block, dict) or block_type is None:
        rec.out.append(
            IngestError("invalid_field", "claude-code assistant content block has no string 'type'")
        )
        return None
    if block_type == "text":
        return rec.event(
            EventType.ASSISTANT_RESPONSE,
            block_type,
            message_text(block),
            model=model,
            is_final_answer=is_final,
        )
    if block_type in ("thinking", "redacted_thinking"):
        thinking = as_str(block.get("thinking"))
        opaque = None if thinking else as_str(block.get("data")) or as_str(block.get("signature"))
        return rec.event(
            EventType.REASONING,
            block_type,
            thinking or opaque or "",
            content_format=ContentFormat.REASONING,
            encrypted=opaque is not None,
            model=model,
        )
    if block_type in _CALL_BLOCKS:
        return _tool_use(rec, block, block_type, model)
    if block_type.endswith("_tool_result"):
        call_id = rec.text("tool_use_id", block)
        name = recall_call(rec.state.raw, call_id)
        return rec.event(
            EventType.TOOL_RESPONSE,
            block_type,
            message_text(block.get("content")) or json_text(block.get("content")),
            content_format=ContentFormat.TOOL_RESPONSE,
            tool_name=name,
            tool_call_id=call_id,
        )
    return rec.event(EventType.UNKNOWN, block_type, message_text(block), model=model)


def _tool_use(rec: ClaudeRecord, block: dict[str, Any], block_type: str, model: str | None) -> Event:
    name = rec.text("name", block)
    if name is None:
        rec.out.append(IngestError("invalid_field", f"claude-code {block_type} block has no tool name"))
    call_id = rec.text("id", block)
    remember_call(rec.state.raw, call_id, name)
    tool_name, is_moraine = canonical_tool_name(name) if name else (None, False)
    arguments = block.get("input")
    if tool_name in SUBAGENT_TOOLS and call_id and isinstance(arguments, dict):
        rec.state.remember_prompt(call_id, arguments.get("prompt"))
    provenance: dict[str, Any] = {"original_tool_name": name} if name != tool_name else {}
    return rec.event(
        EventType.TOOL_CALL,
        block_type,
        render_call(tool_name or "tool", arguments),
        content_format=ContentFormat.TOOL_CALL,
        tool_name=tool_name,
        tool_call_id=call_id,
        arguments=arguments,
        model=model,
        is_moraine_tool=is_moraine,
        provenance=provenance,
    )
