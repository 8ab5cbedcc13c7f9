"""Zencoder sessions (``~/.zencoder/sessions/<id>.jsonl``) -> normalized events.

The first line is the session header ``{id, chatId, modelId, parentId, creationReason, createdAt, updatedAt,
version}``; every later line is a message ``{role, content, createdAt}``:

- ``system``: ``content`` is a string; its ``Working directory: <path>`` line is the session's cwd.
- ``user``: text blocks ``{type: text, text, tag}``; untagged or ``user-input`` blocks are the user's prompt,
  other tags (instructions, reminders) and ``skill`` blocks are injected context (system).
- ``assistant``: ``text`` (a final-answer candidate), ``reasoning`` and ``tool-call`` (``{toolCallId, toolName,
  input}``) blocks.
- ``tool``: ``tool-result`` blocks ``{toolCallId, toolName, content: [text blocks], isError}``; tagged text in a
  result is injected context.
- ``finish``: ``reason: endTurn`` ends the turn (its last candidate is the final answer); another reason stops it.
- ``permission`` (an approval) is not conversation.

A continuation's header names the session it continues (``parentId`` with ``creationReason``
``directContinuation``/``summarizedContinuation``): recorded in provenance, not as a parent (it is not a sub-agent).
"""

from __future__ import annotations

import re
from typing import Any

from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.memory import changed
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, json_text, read_timestamp
from moraine.harness_api.model import Emitted, EventType, IngestError, SessionInfo, TerminalKind

__all__ = ["ZencoderAdapter"]

_CWD = re.compile(r"Working directory:\s+(.+)")
_USER_TAGS = frozenset({"", "user-input"})
_CONTINUATIONS = frozenset({"directContinuation", "summarizedContinuation"})


def _header(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    session = as_str(data.get("id")) or ctx.path.stem
    ctx.state["session"] = session
    ctx.state["model"] = as_str(data.get("modelId"))
    out: list[Emitted] = []
    started = read_timestamp(data.get("createdAt"), out)
    parent = as_str(data.get("parentId"))
    reason = as_str(data.get("creationReason"))
    spawned = parent if parent and reason not in _CONTINUATIONS and reason != "newChat" else None
    out.append(
        SessionInfo(session=session, model=ctx.state["model"], started_at=started, parent_session=spawned)
    )
    return out


def _system(message: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    text = as_str(message.get("content")) or ""
    out: list[Emitted] = []
    found = _CWD.search(text)
    if found and changed(ctx.state, "cwd", found.group(1).strip()):
        out.append(SessionInfo(session=base.session, cwd=ctx.state["cwd"]))
        base.cwd = ctx.state["cwd"]
    if text:
        out.append(base.event(EventType.SYSTEM, text=text))
    return out


def _user(message: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    said: list[str] = []
    context: list[str] = []
    for block in as_list(message.get("content")):
        block = as_dict(block)
        if block.get("type") == "text" and as_str(block.get("text")):
            (said if (as_str(block.get("tag")) or "") in _USER_TAGS else context).append(block["text"])
        elif block.get("type") == "skill" and as_str(block.get("name")):
            context.append(f"[skill {block['name']}]\n{as_str(block.get('content')) or ''}")
    out: list[Emitted] = []
    if said:
        text = "\n".join(said)
        out.append(base.event(EventType.USER_INPUT, text=text, starts_turn=bool(text.strip())))
    if context:
        out.append(base.event(EventType.SYSTEM, text="\n".join(context)))
    return out


def _assistant(message: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    model = as_str(ctx.state.get("model"))
    out: list[Emitted] = []
    for block in as_list(message.get("content")):
        block = as_dict(block)
        kind = block.get("type")
        if kind == "text" and as_str(block.get("text")):
            out.append(
                base.event(
                    EventType.ASSISTANT_RESPONSE, text=block["text"], model=model, is_final_answer=True
                )
            )
        elif kind == "reasoning" and as_str(block.get("text")):
            out.append(base.reasoning(block["text"], model))
        elif kind == "tool-call":
            name, call_id = as_str(block.get("toolName")), as_str(block.get("toolCallId"))
            out.append(base.tool_call(name, call_id, block.get("input"), model, calls=ctx.state))
    return out


def _tool(message: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    out: list[Emitted] = []
    for block in as_list(message.get("content")):
        block = as_dict(block)
        if block.get("type") != "tool-result":
            continue
        texts = [as_dict(b) for b in as_list(block.get("content"))]
        result = "\n".join(str(b["text"]) for b in texts if as_str(b.get("text")) and not b.get("tag"))
        context = [str(b["text"]) for b in texts if as_str(b.get("text")) and b.get("tag")]
        if not texts and block.get("content") is not None:
            result = json_text(block.get("content"))
        failed = block.get("isError") if isinstance(block.get("isError"), bool) else None
        name, call_id = as_str(block.get("toolName")), as_str(block.get("toolCallId"))
        out.append(base.canonical_response(name, call_id, result, tool_error=failed))
        if context:
            out.append(base.event(EventType.SYSTEM, text="\n".join(context)))
    return out


def _finish(message: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    reason = as_str(message.get("reason")) or "unknown"
    kind = TerminalKind.FINAL_RESPONSE if reason == "endTurn" else TerminalKind.STOPPED
    ending = base.event(EventType.RUNTIME, text=f"turn finished: {reason}", terminal=True, terminal_kind=kind)
    return [ending]


_ROLES = {"system": _system, "user": _user, "assistant": _assistant, "tool": _tool, "finish": _finish}


class ZencoderAdapter(ObjectAdapter):
    """Normalize Zencoder session lines (the header, then one message a line)."""

    harness = "zencoder"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one line."""
        role = data.get("role")
        if role is None and "session" not in ctx.state:
            return _header(data, ctx)
        if role == "permission":
            return []
        read = _ROLES.get(role) if isinstance(role, str) else None
        if read is None:
            return [IngestError("unknown_record", f"Zencoder line with role {str(role)[:40]!r}")]
        session = as_str(ctx.state.get("session")) or ctx.path.stem
        out: list[Emitted] = []
        timestamp = read_timestamp(data.get("createdAt"), out)
        base = RecordEvents(session, timestamp, as_str(ctx.state.get("cwd")), provenance={"role": role})
        out.extend(read(data, base, ctx))
        return out
