"""Kimi CLI wire logs (``~/.kimi/sessions/**/wire.jsonl``) -> normalized events.

Line one is ``{"type": "metadata", ...}``; every other line is ``{timestamp: <Unix seconds>, message: {type,
payload}}``. ``TurnBegin.user_input`` is the user's prompt; ``ContentPart`` carries reasoning (``think``) or text;
``ToolCall``/``ToolResult`` pair by id; ``StepBegin``, ``StatusUpdate``, streaming ``ToolCallPart`` deltas and
``SubagentEvent`` mirrors carry nothing to index. ``TurnEnd`` and ``StepInterrupted`` end a turn (the wire log
names no final answer, so none is flagged). A sub-agent's log (``<session>/subagents/<agent>/wire.jsonl``) is its
own session, ``<session>:<agent>``, linked to its parent and marked as a sidechain. The working directory comes
from ``kimi.json`` (Kimi names a work dir's session folder by the MD5 of its path).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.chat import function_call
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.memory import changed
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.text import parts_text
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, output_text, read_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo, TerminalKind

__all__ = ["KimiAdapter"]

_SILENT = frozenset({"StepBegin", "StatusUpdate", "ToolCallPart", "SubagentEvent", "CompactionBegin"})


class KimiAdapter(ObjectAdapter):
    """Normalize Kimi CLI wire logs, sub-agent logs included."""

    harness = "kimi-cli"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one wire line."""
        out: list[Emitted] = []
        session, parent = _session_of(ctx)
        if changed(ctx.state, "announced", True):
            ctx.state["cwd"] = _work_dir(ctx)
            out.append(SessionInfo(session=session, parent_session=parent, cwd=ctx.state["cwd"]))
        if data.get("type") == "metadata":
            return out
        message = data.get("message")
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            out.append(IngestError("malformed_record", "wire line without a typed message"))
            return out
        timestamp = read_timestamp(data.get("timestamp"), out)
        kind = message["type"]
        payload = as_dict(message.get("payload"))
        base = RecordEvents(
            session, timestamp, as_str(ctx.state.get("cwd")), parent is not None, {"message_type": kind}
        )
        if kind == "TurnBegin":
            text = parts_text(payload.get("user_input"))
            out.append(base.event(EventType.USER_INPUT, text=text, starts_turn=bool(text)))
        elif kind == "ContentPart":
            out.extend(_content(payload, base))
        elif kind == "ToolCall":
            out.append(base.tool_call(*function_call(payload), calls=ctx.state))
        elif kind == "ToolResult":
            out.append(_tool_result(payload, base, ctx))
        elif kind == "TurnEnd":
            out.append(base.event(EventType.RUNTIME, terminal=True, terminal_kind=TerminalKind.STOPPED))
        elif kind == "StepInterrupted":
            out.append(base.event(EventType.RUNTIME, terminal=True, terminal_kind=TerminalKind.INTERRUPTED))
        elif kind == "CompactionEnd":
            out.append(base.event(EventType.COMPACTION))
        elif kind not in _SILENT:
            out.append(IngestError("unknown_record", f"unknown wire message type {kind[:40]!r}"))
        return out


def _session_of(ctx: StreamContext) -> tuple[str, str | None]:
    """Return ``(session, parent session)`` from the log's location."""
    directory = ctx.path.parent
    if directory.parent.name == "subagents":
        parent = directory.parent.parent.name
        return f"{parent}:{directory.name}", parent
    return directory.name, None


def _work_dir(ctx: StreamContext) -> str | None:
    """Return the session's working directory: Kimi names each work dir's session folder by the MD5 of its path,
    and lists the work dirs in ``kimi.json`` beside ``sessions/``."""
    parents = ctx.path.parents
    for index, folder in enumerate(parents[:-1]):
        if folder.parent.name == "sessions":
            config = folder.parent.parent / "kimi.json"
            try:
                work_dirs = as_list(as_dict(json.loads(config.read_text(encoding="utf-8"))).get("work_dirs"))
            except (OSError, ValueError):
                return None
            for entry in work_dirs:
                path = as_str(as_dict(entry).get("path"))
                if path and hashlib.md5(path.encode("utf-8")).hexdigest() == folder.name:
                    return path
            return None
        if index > 4:
            break
    return None


def _content(payload: dict[str, Any], base: RecordEvents) -> list[Emitted]:
    kind = payload.get("type")
    if kind == "think" and isinstance(payload.get("think"), str):
        return [base.reasoning(payload["think"])]
    if kind == "text" and isinstance(payload.get("text"), str):
        return [base.answer(payload["text"])]
    return []


def _tool_result(payload: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> Event:
    call_id = as_str(payload.get("tool_call_id"))
    name = recall_call(ctx.state, call_id)
    value = as_dict(payload.get("return_value"))
    output = value.get("output")
    text = output_text(output) if output not in (None, "") else as_str(value.get("message")) or ""
    error = value.get("is_error")
    return base.tool_response(name, call_id, text, tool_error=error if isinstance(error, bool) else None)
