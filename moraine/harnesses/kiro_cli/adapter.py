"""Kiro CLI sessions (source ``kiro``: ``~/.kiro/sessions/cli/<id>.jsonl`` + ``<id>.json`` sidecar) -> events.

Lines are ``{version, kind, data: {message_id, content: [{kind, data}], meta: {timestamp}}}``: ``Prompt`` (user
text and images), ``AssistantMessage`` (thinking, text, ``toolUse``), ``ToolResults`` (``toolResult`` blocks) and
``Compaction`` (a summary); other kinds are kept as ``unknown`` events. The JSON sidecar beside the log names the
session id, working directory, title and model; it is re-read whenever it changes on disk. An assistant message is
one model response: one without tool use ends the agent loop, so its last text is the turn's final answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.events import RecordEvents, end_message
from moraine.harnesses._shared.memory import changed
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import (
    as_dict,
    as_list,
    as_str,
    output_text,
    parse_timestamp,
    read_timestamp,
)
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, RawRecord, SessionInfo

__all__ = ["KiroAdapter"]

_OK_STATUSES = frozenset({"success", "Success"})


class KiroAdapter:
    """Normalize Kiro CLI session logs with their JSON sidecars."""

    harness = "kiro-cli"

    def normalize(self, record: RawRecord, ctx: StreamContext) -> Iterable[Emitted]:
        """Return the events, session metadata and ingest errors of one log line."""
        out: list[Emitted] = list(_sidecar(ctx))
        session = ctx.state.get("session") or ctx.path.stem
        data = record.data
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            out.append(IngestError("malformed_record", "expected a JSON object with a string kind"))
            return out
        kind = data["kind"]
        body = as_dict(data.get("data"))
        timestamp = read_timestamp(as_dict(body.get("meta")).get("timestamp"), out)
        message_id = as_str(body.get("message_id"))
        provenance: dict[str, Any] = (
            {"kind": kind, "message_id": message_id} if message_id else {"kind": kind}
        )
        base = RecordEvents(session, timestamp, ctx.state.get("cwd"), provenance=provenance)
        blocks = [b for b in as_list(body.get("content")) if isinstance(b, dict)]
        if kind == "Prompt":
            text = "\n".join(
                b["data"] for b in blocks if b.get("kind") == "text" and isinstance(b.get("data"), str)
            )
            out.append(base.event(EventType.USER_INPUT, text=text, starts_turn=bool(text)))
        elif kind == "AssistantMessage":
            out.extend(_assistant(blocks, base, ctx))
        elif kind == "ToolResults":
            results = [
                b["data"] for b in blocks if b.get("kind") == "toolResult" and isinstance(b.get("data"), dict)
            ]
            out.extend(_tool_result(result, base, ctx) for result in results)
        elif kind == "Compaction":
            out.append(base.event(EventType.COMPACTION, text=as_str(body.get("summary")) or ""))
        else:
            out.append(base.event(EventType.UNKNOWN, text=as_str(body.get("message")) or ""))
        return out


def _sidecar(ctx: StreamContext) -> list[Emitted]:
    """Read the sidecar when it is new or changed since last time; return its session metadata."""
    path: Path = ctx.path.with_suffix(".json")
    try:
        stat = path.stat()
    except OSError:
        return []
    if not changed(ctx.state, "sidecar", [stat.st_mtime_ns, stat.st_size]):
        return []
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return [IngestError("malformed_sidecar", f"{path.name}: {exc}")]
    if not isinstance(meta, dict):
        return [IngestError("malformed_sidecar", f"{path.name}: not a JSON object")]
    session = as_str(meta.get("session_id")) or ctx.path.stem
    ctx.state["session"] = session
    cwd = as_str(meta.get("cwd"))
    if cwd:
        ctx.state["cwd"] = cwd
    model_info = as_dict(as_dict(as_dict(meta.get("session_state")).get("rts_model_state")).get("model_info"))
    model = as_str(model_info.get("model_id"))
    if model:
        ctx.state["model"] = model
    started, _ = parse_timestamp(meta.get("created_at"))
    return [
        SessionInfo(
            session=session, title=as_str(meta.get("title")), cwd=cwd, model=model, started_at=started
        )
    ]


def _assistant(blocks: list[dict[str, Any]], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    events: list[Event] = []
    default_model = ctx.state.get("model")
    for block in blocks:
        kind = block.get("kind")
        value = block.get("data")
        if kind == "thinking":
            text = value if isinstance(value, str) else as_str(as_dict(value).get("text")) or ""
            events.append(base.reasoning(text, default_model))
        elif kind == "text" and isinstance(value, str):
            events.append(base.answer(value, default_model))
        elif kind == "toolUse" and isinstance(value, dict):
            events.append(_tool_use(value, base, default_model, ctx))
    return end_message(events)


def _tool_use(
    use: dict[str, Any], base: RecordEvents, default_model: str | None, ctx: StreamContext
) -> Event:
    model = as_str(use.get("modelId")) or default_model
    call_id = as_str(use.get("toolUseId"))
    return base.tool_call(as_str(use.get("name")), call_id, use.get("input"), model, calls=ctx.state)


def _tool_result(result: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> Event:
    call_id = as_str(result.get("toolUseId"))
    status = as_str(result.get("status"))
    return base.tool_response(
        recall_call(ctx.state, call_id),
        call_id,
        output_text(result.get("content")),
        tool_error=(status not in _OK_STATUSES) if status else None,
        provenance={"status": status} if status else {},
    )
