"""The pi session-tree schema -> normalized events (pi-coding-agent, omp, Prime Agent and OpenClaw write it).

Each line is one tree entry ``{type, id, parentId, timestamp, ...}``: a ``session`` header (id, cwd), model and
thinking-level changes, ``message`` entries (roles user, assistant, toolResult, bashExecution, custom), compactions,
branch summaries, labels, custom entries and ``session_info`` (the session's name). An assistant message records its
``stopReason``: ``stop`` ends the turn with the message's last text as the final answer; ``length``, ``aborted`` and
``error`` end it without one.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import PurePath
from typing import Any

from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.usage import UsageKeys, attach_usage, token_usage
from moraine.harnesses._shared.text import parts_text, render_call
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import (
    as_dict,
    as_int,
    as_list,
    as_str,
    epoch_to_datetime,
    output_text,
    parse_timestamp,
    read_timestamp,
    trailing_uuid,
)
from moraine.harness_api.model import (
    ContentFormat,
    Emitted,
    Event,
    EventType,
    IngestError,
    SessionInfo,
    TerminalKind,
)

__all__ = ["PiFamilyNormalizer"]

# The usage object pi (and the OpenClaw family) writes on an assistant message; its ``totalTokens`` and ``cost``
# are not read (Moraine prices tokens itself).
PI_USAGE = UsageKeys(
    input=("input",), output=("output",), cache_read=("cacheRead",), cache_write=("cacheWrite",)
)

# stopReason -> how the turn ended (toolUse continues the turn).
_STOP_KINDS = {
    "stop": TerminalKind.FINAL_RESPONSE,
    "length": TerminalKind.STOPPED,
    "aborted": TerminalKind.INTERRUPTED,
    "error": TerminalKind.CRASHED,
}


class PiFamilyNormalizer(ObjectAdapter):
    """The normalizer of the pi session-tree schema; subclasses set the harness and sub-agent policy."""

    harness = "pi-coding-agent"
    # Whether a ``parentSession`` header field names a parent this session is a sub-agent of.
    parent_is_subagent = False

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one tree entry."""
        kind = as_str(data.get("type")) or ""
        out: list[Emitted] = []
        if kind == "session":
            out.extend(self._header(data, ctx))
        session = ctx.state.get("session") or _session_from_path(ctx)
        ctx.state["session"] = session
        timestamp = read_timestamp(data.get("timestamp"), out)
        if timestamp is None:
            timestamp = _message_time(data)
        provenance: dict[str, Any] = {"record_type": data.get("type")}
        for key, name in (("id", "id"), ("parentId", "parent_id"), ("customType", "custom_type")):
            if as_str(data.get(key)):
                provenance[name] = data[key]
        base = RecordEvents(session, timestamp, ctx.state.get("cwd"), self._sidechain(ctx), provenance)
        handler = _HANDLERS.get(kind)
        if handler is not None:
            out.extend(handler(data, base, ctx))
        message = as_dict(data.get("message"))
        if kind == "message" and message.get("role") == "assistant":
            # pi writes one entry per model call, its usage on the assistant message: counted on its first event
            attach_usage(out, token_usage(message.get("usage"), PI_USAGE))
        return out

    def _sidechain(self, ctx: StreamContext) -> bool:
        return False

    def _header(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        session = as_str(data.get("id")) or ctx.state.get("session") or _session_from_path(ctx)
        ctx.state["session"] = session
        cwd = as_str(data.get("cwd"))
        if cwd:
            ctx.state["cwd"] = cwd
        started, _ = parse_timestamp(data.get("timestamp"))
        parent = None
        parent_path = as_str(data.get("parentSession"))
        if parent_path and self.parent_is_subagent:
            stem = PurePath(parent_path).stem
            parent = trailing_uuid(stem) or stem
            ctx.state["parent"] = parent
        return [SessionInfo(session=session, cwd=cwd, started_at=started, parent_session=parent)]


def _session_from_path(ctx: StreamContext) -> str:
    return trailing_uuid(ctx.path.stem) or ctx.path.stem


def _message_time(data: dict[str, Any]) -> datetime | None:
    millis = as_dict(data.get("message")).get("timestamp")
    if isinstance(millis, int | float) and not isinstance(millis, bool):
        return epoch_to_datetime(float(millis))
    return None


def _model_change(data: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    model = as_str(data.get("modelId"))
    provider = as_str(data.get("provider"))
    if not model:
        return [IngestError("malformed_record", "model_change entry without a modelId")]
    ctx.state["model"] = model
    label = f"{provider}/{model}" if provider else model
    return [SessionInfo(session=base.session, model=model), base.event(EventType.SYSTEM, text=label)]


def _thinking_level(data: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    return [base.event(EventType.SYSTEM, text=as_str(data.get("thinkingLevel")) or "")]


def _session_info(data: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    name = as_str(data.get("name")) or as_str(data.get("title"))
    if not name:
        return []
    return [SessionInfo(session=base.session, title=name), base.event(EventType.SYSTEM, text=name)]


def _summary(data: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    return [base.event(EventType.COMPACTION, text=as_str(data.get("summary")) or "")]


def _label(data: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    return [base.event(EventType.SYSTEM, text=as_str(data.get("label")) or "")]


def _custom_message(data: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    if data.get("display") is False:
        return []  # hidden from the user in the harness: not part of the searchable conversation
    text = parts_text(data.get("content"), "text")
    relationship = as_dict(data.get("details")).get("fromRelationship")
    if base.sidechain and data.get("customType") == "agent_message" and relationship == "parent":
        # A sub-agent's task, handed down by its parent agent: the child session's input.
        return [base.event(EventType.USER_INPUT, text=text, starts_turn=bool(text))]
    return [base.event(EventType.SYSTEM, text=text)]


def _message(data: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    message = data.get("message")
    if not isinstance(message, dict):
        return [IngestError("malformed_record", "message entry without a message object")]
    role = message.get("role")
    if role == "user":
        # An attachment-only message (no text) joins the turn it follows instead of opening an empty one.
        text = parts_text(message.get("content"), "text")
        return [base.event(EventType.USER_INPUT, text=text, starts_turn=bool(text))]
    if role == "assistant":
        return _assistant(message, base, ctx)
    if role == "toolResult":
        return [_tool_result(message, base)]
    if role == "bashExecution":
        return _bash(message, base, data)
    return []


def _assistant(message: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    model = as_str(message.get("model")) or ctx.state.get("model")
    stop = as_str(message.get("stopReason"))
    extra = {"stop_reason": stop} if stop else {}
    events: list[Event] = []
    for block in as_list(message.get("content")):
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "thinking" and isinstance(block.get("thinking"), str):
            events.append(base.reasoning(block["thinking"], model, provenance=extra))
        elif kind == "text" and isinstance(block.get("text"), str):
            events.append(base.answer(block["text"], model, provenance=extra))
        elif kind == "toolCall":
            events.append(_tool_call(block, base, model, extra))
    terminal_kind = _STOP_KINDS.get(stop or "")
    if terminal_kind is not None:
        answers = [e for e in events if e.type is EventType.ASSISTANT_RESPONSE]
        if terminal_kind is TerminalKind.FINAL_RESPONSE and answers:
            answers[-1].is_final_answer = True
            closing = answers[-1]
        elif events:
            closing = events[-1]
            if terminal_kind is TerminalKind.FINAL_RESPONSE:
                terminal_kind = TerminalKind.STOPPED
        else:
            if terminal_kind is TerminalKind.FINAL_RESPONSE:
                terminal_kind = TerminalKind.STOPPED
            closing = base.event(
                EventType.RUNTIME,
                text=as_str(message.get("errorMessage")) or "",
                model=model,
                provenance=extra,
            )
            events.append(closing)
        closing.terminal = True
        closing.terminal_kind = terminal_kind
    return list(events)


def _tool_call(block: dict[str, Any], base: RecordEvents, model: str | None, extra: dict[str, Any]) -> Event:
    return base.tool_call(
        as_str(block.get("name")), as_str(block.get("id")), block.get("arguments"), model, extra
    )


def _tool_result(message: dict[str, Any], base: RecordEvents) -> Event:
    error = message.get("isError")
    return base.canonical_response(
        as_str(message.get("toolName")) or "unknown",
        as_str(message.get("toolCallId")),
        output_text(message.get("content")),
        tool_error=error if isinstance(error, bool) else None,
    )


def _bash(message: dict[str, Any], base: RecordEvents, data: dict[str, Any]) -> list[Emitted]:
    """A ``!command`` the user ran in the session: recorded as a bash call and its output."""
    command = as_str(message.get("command")) or ""
    exit_code = as_int(message.get("exitCode"))
    call_id = as_str(data.get("id"))
    cancelled = message.get("cancelled") is True
    return [
        base.event(
            EventType.TOOL_CALL,
            text=render_call("bash", {"command": command}),
            content_format=ContentFormat.TOOL_CALL,
            tool_name="bash",
            tool_call_id=call_id,
            arguments={"command": command},
        ),
        base.event(
            EventType.TOOL_RESPONSE,
            text=as_str(message.get("output")) or "",
            content_format=ContentFormat.TOOL_RESPONSE,
            tool_name="bash",
            tool_call_id=call_id,
            exit_code=exit_code,
            tool_error=cancelled or (exit_code is not None and exit_code != 0),
            provenance={"cancelled": True} if cancelled else {},
        ),
    ]


_HANDLERS = {
    "model_change": _model_change,
    "thinking_level_change": _thinking_level,
    "session_info": _session_info,
    "title": _session_info,
    "title_change": _session_info,
    "compaction": _summary,
    "branch_summary": _summary,
    "label": _label,
    "custom_message": _custom_message,
    "message": _message,
}
