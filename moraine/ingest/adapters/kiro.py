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
from datetime import datetime
from pathlib import Path
from typing import Any

from moraine.ingest.adapters._calls import recall_call, remember_call
from moraine.ingest.adapters._text import render_call
from moraine.ingest.adapters.base import StreamContext
from moraine.ingest.adapters.fields import (
    as_dict,
    as_list,
    as_str,
    canonical_tool_name,
    is_moraine_tool_name,
    output_text,
    parse_timestamp,
)
from moraine.ingest.model import (
    ContentFormat,
    Emitted,
    Event,
    EventType,
    IngestError,
    RawRecord,
    SessionInfo,
    TerminalKind,
)

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
        timestamp, error = parse_timestamp(as_dict(body.get("meta")).get("timestamp"))
        if error is not None:
            out.append(error)
        base = _Base(session, timestamp, kind, as_str(body.get("message_id")), ctx.state.get("cwd"))
        blocks = [b for b in as_list(body.get("content")) if isinstance(b, dict)]
        if kind == "Prompt":
            text = "\n".join(
                b["data"] for b in blocks if b.get("kind") == "text" and isinstance(b.get("data"), str)
            )
            out.append(base.event(EventType.USER_INPUT, text=text, starts_turn=bool(text)))
        elif kind == "AssistantMessage":
            out.extend(_assistant(blocks, base, ctx))
        elif kind == "ToolResults":
            out.extend(_tool_results(blocks, base, ctx))
        elif kind == "Compaction":
            out.append(base.event(EventType.COMPACTION, text=as_str(body.get("summary")) or ""))
        else:
            out.append(base.event(EventType.UNKNOWN, text=as_str(body.get("message")) or ""))
        return out


class _Base:
    """Fields every event of one log line shares."""

    def __init__(
        self, session: str, timestamp: datetime | None, kind: str, message_id: str | None, cwd: str | None
    ) -> None:
        self.session = session
        self.timestamp = timestamp
        self.cwd = cwd
        self.provenance: dict[str, Any] = {"kind": kind}
        if message_id:
            self.provenance["message_id"] = message_id

    def event(self, type_: EventType, **fields: Any) -> Event:
        provenance = {**self.provenance, **fields.pop("provenance", {})}
        return Event(
            session=self.session,
            type=type_,
            timestamp=self.timestamp,
            cwd=self.cwd,
            provenance=provenance,
            **fields,
        )


def _sidecar(ctx: StreamContext) -> list[Emitted]:
    """Read the sidecar when it is new or changed since last time; return its session metadata."""
    path: Path = ctx.path.with_suffix(".json")
    try:
        stat = path.stat()
    except OSError:
        return []
    signature = [stat.st_mtime_ns, stat.st_size]
    if ctx.state.get("sidecar") == signature:
        return []
    ctx.state["sidecar"] = signature
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


def _assistant(blocks: list[dict[str, Any]], base: _Base, ctx: StreamContext) -> list[Emitted]:
    events: list[Event] = []
    default_model = ctx.state.get("model")
    for block in blocks:
        kind = block.get("kind")
        value = block.get("data")
        if kind == "thinking":
            text = value if isinstance(value, str) else as_str(as_dict(value).get("text")) or ""
            events.append(
                base.event(
                    EventType.REASONING,
                    text=text,
                    model=default_model,
                    content_format=ContentFormat.REASONING,
                )
            )
        elif kind == "text" and isinstance(value, str):
            events.append(base.event(EventType.ASSISTANT_RESPONSE, text=value, model=default_model))
        elif kind == "toolUse" and isinstance(value, dict):
            raw_name = as_str(value.get("name")) or "unknown"
            name, is_moraine = canonical_tool_name(raw_name)
            call_id = as_str(value.get("toolUseId"))
            remember_call(ctx.state, call_id, name)
            arguments = value.get("input")
            events.append(
                base.event(
                    EventType.TOOL_CALL,
                    text=render_call(name, arguments),
                    content_format=ContentFormat.TOOL_CALL,
                    tool_name=name,
                    tool_call_id=call_id,
                    arguments=arguments,
                    model=as_str(value.get("modelId")) or default_model,
                    is_moraine_tool=is_moraine,
                    provenance={"original_tool_name": raw_name} if raw_name != name else {},
                )
            )
    if not any(e.type is EventType.TOOL_CALL for e in events):
        answers = [e for e in events if e.type is EventType.ASSISTANT_RESPONSE]
        if answers:
            answers[-1].is_final_answer = True
            answers[-1].terminal = True
            answers[-1].terminal_kind = TerminalKind.FINAL_RESPONSE
    return list(events)


def _tool_results(blocks: list[dict[str, Any]], base: _Base, ctx: StreamContext) -> list[Emitted]:
    out: list[Emitted] = []
    for block in blocks:
        value = block.get("data")
        if block.get("kind") != "toolResult" or not isinstance(value, dict):
            continue
        call_id = as_str(value.get("toolUseId"))
        name = recall_call(ctx.state, call_id)
        status = as_str(value.get("status"))
        out.append(
            base.event(
                EventType.TOOL_RESPONSE,
                text=output_text(value.get("content")),
                content_format=ContentFormat.TOOL_RESPONSE,
                tool_name=name,
                tool_call_id=call_id,
                tool_error=(status not in _OK_STATUSES) if status else None,
                is_moraine_tool=is_moraine_tool_name(name),
                provenance={"status": status} if status else {},
            )
        )
    return out
