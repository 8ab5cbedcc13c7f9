"""Trae's session list (``state.vscdb`` key ``memento/icube-ai-agent-storage``) -> normalized events.

Records come from ``reader.TraeSessionsReader``: ``{record, key, value: {list: [session, ...]}, cwd, settled}``. A
session is ``{sessionId, createdAt, updatedAt, model, messages: [{role, content, agentTaskContent, timestamp, model,
turnIndex}]}`` (times in Unix seconds or milliseconds, or RFC 3339). Only ``user`` and ``assistant`` messages are
conversation; an assistant message with no ``content`` says what its ``agentTaskContent`` holds (a string, or an
object's ``content``/``text``/``proposal``, or the contents of its ``guideline.planItems``). Each snapshot emits the
messages not emitted before: a message once another follows it, or the snapshot is settled.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.snapshot import Said, said_events, take_new
from moraine.harnesses.trae.reader import SESSIONS_RECORD
from moraine.harnesses._shared.memory import changed
from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, parse_timestamp
from moraine.harness_api.model import Emitted, IngestError, SessionInfo

__all__ = ["TraeAdapter"]

_ROLES = frozenset({"user", "assistant"})


def _sessions(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    listed = as_dict(data.get("value")).get("list")
    if not isinstance(listed, list):
        return [IngestError("unknown_record", "Trae agent storage without a session list")]
    out: list[Emitted] = []
    for session in listed:
        out.extend(_session(session, as_str(data.get("cwd")), data.get("settled") is True, ctx))
    return out


def _session(session: Any, cwd: str | None, settled: bool, ctx: StreamContext) -> list[Emitted]:
    sid = as_str(session.get("sessionId")) if isinstance(session, dict) else None
    if sid is None:
        return [IngestError("malformed_record", "Trae session without a sessionId")]
    out: list[Emitted] = []
    model = as_str(session.get("model"))
    messages = [_said(m, model, out) for m in as_list(session.get("messages"))]
    said = [m for m in messages if m is not None]
    complete = len(said) if settled else len(said) - 1
    start, new, entry = take_new(ctx.state, sid, said, complete)
    started, _ = parse_timestamp(session.get("createdAt"))
    if changed(entry, "info", [cwd, model]):
        out.append(SessionInfo(session=sid, cwd=cwd, model=model, started_at=started))
    out.extend(said_events(sid, cwd, said, range(start, start + len(new)), settled, {}))
    return out


def _said(message: Any, model: str | None, out: list[Emitted]) -> Said | None:
    role = as_str(message.get("role")) if isinstance(message, dict) else None
    if role not in _ROLES:
        return None
    text = as_str(message.get("content")) or ""
    if not text.strip() and role == "assistant":
        text = _task_content(message.get("agentTaskContent"))
    timestamp, error = parse_timestamp(message.get("timestamp"))
    if error is not None:
        out.append(error)
    return Said(role == "user", text, timestamp, as_str(message.get("model")) or model)


def _task_content(value: Any) -> str:
    if isinstance(value, str):
        return value
    fields = as_dict(value)
    for key in ("content", "text", "proposal"):
        if as_str(fields.get(key)) and fields[key].strip():
            return str(fields[key])
    items = as_list(as_dict(fields.get("guideline")).get("planItems"))
    return "\n".join(str(i["content"]) for i in items if isinstance(i, dict) and as_str(i.get("content")))


class TraeAdapter(TaggedAdapter):
    """Normalize Trae session-list snapshots."""

    harness = "trae"
    kinds = {SESSIONS_RECORD: _sessions}
    untagged = "not a Trae session-list snapshot"
