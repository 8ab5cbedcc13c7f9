"""OpenCode (source ``opencode``): message parts read from its SQLite store -> normalized events.

Records come from ``moraine.harnesses._shared.opencode_format.reader``: ``{record: "opencode_part", part: {id, message_id,
time_created, data}, message: {id, data}, session: {id, title, directory, parent_id, time_created}, last_text}``.
The session row gives the title, working directory and parent (a sub-agent session spawned by a task tool).
Part types: ``text`` (user prompt, or assistant response; user text marked ``synthetic`` is an injected file or
tool narration, recorded as system text), ``reasoning``, ``tool`` (the call, and its result once ``state.status``
is completed or error), ``step-finish`` (``reason: stop`` ends the turn) and ``compaction``. When the message
finished with ``stop``, its last text part is the final answer.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.memory import changed
from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import (
    as_dict,
    as_int,
    as_str,
    json_text,
    parse_timestamp,
    read_timestamp,
)
from moraine.harness_api.model import Emitted, EventType, IngestError, SessionInfo, TerminalKind
from moraine.harnesses._shared.opencode_format.reader import PART_RECORD

__all__ = ["OpenCodeAdapter"]

# Sessions whose metadata was announced, remembered in the stream state (bounded; re-announcing is harmless).
_KNOWN_LIMIT = 512
_ENDED_TOOL = frozenset({"completed", "error"})
_STOP_KINDS = {
    "stop": TerminalKind.FINAL_RESPONSE,
    "length": TerminalKind.STOPPED,
    "error": TerminalKind.CRASHED,
}


def _part(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    """Return the events, session metadata and ingest errors of one part."""
    session_row = as_dict(data.get("session"))
    session = as_str(session_row.get("id"))
    part_row = as_dict(data.get("part"))
    part = as_dict(part_row.get("data"))
    if not session or not part:
        return [IngestError("malformed_record", "OpenCode part without session id or data")]
    message = as_dict(as_dict(data.get("message")).get("data"))
    out: list[Emitted] = list(_announce(session, session_row, ctx))
    start = as_dict(part.get("time")).get("start")
    timestamp = read_timestamp(start if start is not None else part_row.get("time_created"), out)
    cwd = as_str(as_dict(message.get("path")).get("cwd")) or as_str(session_row.get("directory"))
    role = as_str(message.get("role")) or "unknown"
    model = as_str(message.get("modelID")) if role == "assistant" else None
    sidechain = as_str(session_row.get("parent_id")) is not None
    base = RecordEvents(session, timestamp, cwd, sidechain, {"part_type": part.get("type"), "role": role})
    kind = part.get("type")
    if kind == "text":
        out.extend(_text(part, message, role, model, base, data.get("last_text") is True))
    elif kind == "reasoning" and isinstance(part.get("text"), str):
        out.append(base.reasoning(part["text"], model))
    elif kind == "tool":
        out.extend(_tool(part, model, base))
    elif kind == "step-finish":
        out.extend(_step_finish(part, base))
    elif kind == "compaction":
        out.append(base.event(EventType.COMPACTION))
    return out


def _announce(session: str, row: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    signature = [row.get("title"), row.get("directory"), row.get("parent_id")]
    if not changed(ctx.state.setdefault("sessions", {}), session, signature, _KNOWN_LIMIT):
        return []
    started, _ = parse_timestamp(row.get("time_created"))
    return [
        SessionInfo(
            session=session,
            title=as_str(row.get("title")),
            cwd=as_str(row.get("directory")),
            parent_session=as_str(row.get("parent_id")),
            started_at=started,
        )
    ]


def _text(
    part: dict[str, Any],
    message: dict[str, Any],
    role: str,
    model: str | None,
    base: RecordEvents,
    last_text: bool,
) -> list[Emitted]:
    text = as_str(part.get("text")) or ""
    if role == "user":
        if part.get("synthetic") is True:
            return [base.event(EventType.SYSTEM, text=text, provenance={"synthetic": True})]
        return [base.event(EventType.USER_INPUT, text=text, starts_turn=bool(text))]
    final = role == "assistant" and last_text and message.get("finish") == "stop"
    return [base.answer(text, model, final)]


def _tool(part: dict[str, Any], model: str | None, base: RecordEvents) -> list[Emitted]:
    state = as_dict(part.get("state"))
    status = as_str(state.get("status"))
    call = base.tool_call(as_str(part.get("tool")), as_str(part.get("callID")), state.get("input"), model)
    if status not in _ENDED_TOOL:
        return [call]
    failed = status == "error"
    text = json_text(state.get("error") if failed else state.get("output"))
    exit_code = as_int(as_dict(state.get("metadata")).get("exit"))
    response = base.response_to(
        call, text, tool_error=failed, exit_code=exit_code, provenance={"status": status}
    )
    return [call, response]


def _step_finish(part: dict[str, Any], base: RecordEvents) -> list[Emitted]:
    reason = as_str(part.get("reason"))
    kind = _STOP_KINDS.get(reason or "")
    if kind is None:
        return []  # a step that continues with tool calls
    return [
        base.event(
            EventType.RUNTIME, text="", terminal=True, terminal_kind=kind, provenance={"reason": reason}
        )
    ]


class OpenCodeAdapter(TaggedAdapter):
    """Normalize OpenCode message parts."""

    harness = "opencode"
    kinds = {PART_RECORD: _part}
    untagged = "not an OpenCode part record"
