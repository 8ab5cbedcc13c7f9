"""Reasonix session transcripts (``~/.reasonix/**/<id>.jsonl`` with a ``<id>.jsonl.meta`` sidecar) -> events.

A transcript is one chat-completions message a line: ``{role, content, reasoning_content, tool_calls: [{id, name,
arguments}], tool_call_id}`` (roles user, assistant, tool, system). Lines carry no time: each takes the sidecar's
``updated_at`` when read (else the file's modification time), marked in provenance. The sidecar is one JSON
object ``{id, created_at, updated_at, scope, workspace_root, topic_title, model}``: the session's title, cwd, model
and start, read again whenever it changes. Sessions sit under ``projects/<project>/sessions/``, ``sessions/``
(``subagents/`` among them) and ``archive/``. An assistant message calling no tool ends the turn with its text as
the final answer.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.chat import chat_event, function_call, said, tool_calls
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.sidecar import changed_sidecar
from moraine.harnesses._shared.text import parts_text
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_str, parse_json_string, parse_timestamp
from moraine.harness_api.model import Emitted, Event, IngestError, SessionInfo

__all__ = ["ReasonixAdapter"]


class ReasonixAdapter(ObjectAdapter):
    """Normalize Reasonix transcripts."""

    harness = "reasonix"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one transcript line."""
        session = ctx.path.name.removesuffix(".jsonl")
        out = _sidecar(ctx.path.with_name(ctx.path.name + ".meta"), session, ctx)
        when, source = _when(ctx)
        provenance = {"role": data.get("role"), "timestamp_source": source}
        base = RecordEvents(session, when, ctx.state.get("cwd"), provenance=provenance)
        content = parts_text(data.get("content"))
        event = chat_event(data, content, base, ctx.state, spelling=False)
        if event is not None:
            out.append(event)
        elif data.get("role") == "assistant":
            out.extend(_assistant(data, content, base, ctx))
        else:
            out.append(IngestError("unknown_record", f"Reasonix message role {str(data.get('role'))[:40]!r}"))
        return out


def _sidecar(path: Path, session: str, ctx: StreamContext) -> list[Emitted]:
    """Return the session metadata of the ``.meta`` sidecar when it is new or changed since last read."""
    meta = changed_sidecar(path, ctx.state, "meta")
    if meta is None or isinstance(meta, IngestError):
        return [] if meta is None else [meta]
    meta = as_dict(meta)
    ctx.state["cwd"] = as_str(meta.get("workspace_root"))
    ctx.state["model"] = as_str(meta.get("model"))
    ctx.state["updated"] = as_str(meta.get("updated_at"))
    started, _ = parse_timestamp(meta.get("created_at"))
    title = as_str(meta.get("topic_title"))
    return [
        SessionInfo(session, title=title, cwd=ctx.state["cwd"], model=ctx.state["model"], started_at=started)
    ]


def _when(ctx: StreamContext) -> tuple[datetime | None, str]:
    """Return the time a line without one is given: the sidecar's ``updated_at``, else the file's mtime."""
    updated, _ = parse_timestamp(ctx.state.get("updated"))
    if updated is not None:
        return updated, "meta_updated_at"
    try:
        return datetime.fromtimestamp(ctx.path.stat().st_mtime, UTC), "file_mtime"
    except OSError:
        return None, "none"


def _assistant(message: dict[str, Any], content: str, base: RecordEvents, ctx: StreamContext) -> list[Event]:
    model = ctx.state.get("model")
    calls = tool_calls(message)
    events = said(message, "reasoning_content", content, model, base, final=not calls)
    for call in calls:
        if "function" in call:
            name, call_id, arguments = function_call(call)
        else:  # Reasonix's own flat spelling: {id, name, arguments}
            name, call_id, arguments = as_str(call.get("name")), as_str(call.get("id")), call.get("arguments")
        events.append(base.tool_call(name, call_id, parse_json_string(arguments), model, calls=ctx.state))
    return events
