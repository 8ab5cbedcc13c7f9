"""GitHub Copilot CLI session events (``~/.copilot/session-state/``) -> normalized events.

One event a line: ``{type, data, id, parentId, timestamp}``. ``session.start`` carries ``sessionId`` and
``context.cwd``; ``user.message`` the prompt (``content``); ``assistant.message`` the reply text, its
``reasoningText``, its ``toolRequests`` ``[{toolCallId, name, arguments}]`` and ``outputTokens``;
``assistant.reasoning`` a reasoning block; ``tool.execution_complete`` a call's ``result`` (a string or
``{content}``), ``success`` and ``error``; ``session.model_change`` the model; ``abort`` a cancelled turn;
``session.info``/``session.error`` the CLI's notices; ``session.compaction_complete`` a compaction. A reply
without tool requests ends the agent loop, so its text is the turn's answer. The session's name is in
``workspace.yaml`` beside ``events.jsonl`` (the current layout; the older layout is one ``<id>.jsonl`` file).
The early ``history-session-state/`` files are read by ``history``.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses.copilot_cli.history import (
    HEADER_RECORD,
    MESSAGE_RECORD,
    TIMELINE_RECORD,
    history_record,
)
from moraine.harnesses.copilot_cli.workspace import workspace_name
from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.memory import changed
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.text import text_digest
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import (
    as_dict,
    as_int,
    as_list,
    as_str,
    output_text,
    parse_json_string,
    read_timestamp,
)
from moraine.harness_api.model import Emitted, Event, EventType, SessionInfo, TerminalKind, TokenUsage

__all__ = ["CopilotCliAdapter"]

_NOTICES = frozenset({"session.info", "session.error", "session.warning"})
_TITLE_CHECKS = frozenset({"session.start", "assistant.turn_end", "session.shutdown"})


class CopilotCliAdapter(ObjectAdapter):
    """Normalize Copilot CLI session events."""

    harness = "copilot-cli"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one session event."""
        if data.get("record") in (HEADER_RECORD, MESSAGE_RECORD, TIMELINE_RECORD):
            return history_record(data, ctx)
        kind = as_str(data.get("type"))
        body = as_dict(data.get("data"))
        out: list[Emitted] = []
        if kind == "session.start":
            out.extend(_start(body, ctx, out))
        session = _session(ctx)
        if kind in _TITLE_CHECKS:
            title = workspace_name(ctx.path)
            if title and changed(ctx.state, "title", title):
                out.append(SessionInfo(session=session, title=title))
        timestamp = read_timestamp(data.get("timestamp"), out)
        provenance = {"record_type": kind, "id": as_str(data.get("id"))}
        record = RecordEvents(session, timestamp, as_str(ctx.state.get("cwd")), provenance=provenance)
        if kind == "user.message":
            content = as_str(body.get("content")) or ""
            out.append(record.event(EventType.USER_INPUT, text=content, starts_turn=bool(content.strip())))
        elif kind == "assistant.message":
            out.extend(_reply(body, record, ctx))
        elif kind == "assistant.reasoning":
            text = as_str(body.get("content"))
            if text and changed(ctx.state, "reasoning", text_digest(text)):
                out.append(record.reasoning(text, as_str(ctx.state.get("model"))))
        elif kind == "tool.execution_complete":
            out.append(_result(body, record, ctx))
        elif kind == "session.model_change":
            model = as_str(body.get("newModel"))
            if model and changed(ctx.state, "model", model):
                out.append(SessionInfo(session=session, model=model))
        elif kind == "abort":
            reason = as_str(body.get("reason")) or ""
            out.append(
                record.event(
                    EventType.RUNTIME, text=reason, terminal=True, terminal_kind=TerminalKind.CANCELLED
                )
            )
        elif kind in _NOTICES:
            out.append(record.event(EventType.SYSTEM, text=as_str(body.get("message")) or ""))
        elif kind == "session.compaction_complete":
            out.append(record.event(EventType.COMPACTION, text=as_str(body.get("summary")) or ""))
        return out


def _session(ctx: StreamContext) -> str:
    path = ctx.path
    return as_str(ctx.state.get("session")) or (
        path.parent.name if path.name == "events.jsonl" else path.stem
    )


def _start(body: dict[str, Any], ctx: StreamContext, out: list[Emitted]) -> list[Emitted]:
    session = as_str(body.get("sessionId")) or _session(ctx)
    ctx.state["session"] = session
    context = as_dict(body.get("context"))
    cwd = as_str(context.get("cwd"))
    if cwd:
        ctx.state["cwd"] = cwd
    model = as_str(body.get("selectedModel"))
    if model:
        ctx.state["model"] = model
    started = read_timestamp(body.get("startTime"), out)
    return [SessionInfo(session=session, cwd=cwd, model=model, started_at=started)]


def _reply(body: dict[str, Any], record: RecordEvents, ctx: StreamContext) -> list[Event]:
    model = as_str(body.get("model")) or as_str(ctx.state.get("model"))
    requests = [request for request in as_list(body.get("toolRequests")) if isinstance(request, dict)]
    events: list[Event] = []
    reasoning = as_str(body.get("reasoningText"))
    if reasoning and changed(ctx.state, "reasoning", text_digest(reasoning)):
        events.append(record.reasoning(reasoning, model))
    content = as_str(body.get("content"))
    if content:
        events.append(record.answer(content, model, final=not requests))
    for request in requests:
        arguments = parse_json_string(request.get("arguments"))
        call_id = as_str(request.get("toolCallId"))
        events.append(
            record.tool_call(as_str(request.get("name")), call_id, arguments, model, calls=ctx.state)
        )
    output = as_int(body.get("outputTokens"))
    if events and output is not None:
        events[-1].usage = TokenUsage(output=output)
    return events


def _result(body: dict[str, Any], record: RecordEvents, ctx: StreamContext) -> Event:
    call_id = as_str(body.get("toolCallId"))
    result = body.get("result")
    error = as_dict(body.get("error"))
    if isinstance(result, dict) and "content" in result:
        text = output_text(result["content"])
    elif result is not None:
        text = output_text(result)
    else:
        text = as_str(error.get("message")) or ""
    success = body.get("success")
    return record.canonical_response(
        recall_call(ctx.state, call_id) or as_str(body.get("toolName")),
        call_id,
        text,
        tool_error=(not success) if isinstance(success, bool) else None,
    )
