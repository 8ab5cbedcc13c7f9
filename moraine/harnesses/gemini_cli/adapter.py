"""Gemini CLI chats -> normalized events.

Two versions of the same records: a whole JSON document per session (``session-*.json``, read by
``reader.GeminiChatReader``) and, in newer versions, JSONL (``session-*.jsonl``): a header line
``{sessionId, projectHash, startTime, lastUpdated, kind}``, message lines, and ``{"$set": {...}}`` lines that
update the header. A message is ``{id, timestamp, type, content, thoughts, toolCalls, tokens, model}``:
``user`` content is the prompt (a string or ``[{text}]`` parts); a ``gemini`` message carries its thoughts
(``{subject, description}``: reasoning), its text, its tool calls ``{id, name, args, status, result:
[{functionResponse: {id, name, response: {output | error}}}]}`` (call and result together) and its token counts;
``info``, ``warning`` and ``error`` messages are the CLI's own notices. Both versions write a message again as it
grows (same id): each of its parts is emitted once (``_revised``). A ``gemini`` message without tool calls ends
the agent loop, so its text is the turn's final answer. The session's ``summary`` is its title. A slash command that
submits a prompt of Gemini's own (``/init``) is recorded as that prompt: the person's input is the command, and
Gemini's instructions are system text beside it.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses.gemini_cli.project import project_root
from moraine.harnesses.gemini_cli.reader import HEADER_RECORD, MESSAGE_RECORD
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.memory import changed
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.revised import first_sight
from moraine.harnesses._shared.text import parts_text, text_digest
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_int, as_list, as_str, output_text, read_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo, TokenUsage

__all__ = ["GeminiCliAdapter"]

_NOTICES = frozenset({"info", "warning", "error"})
# How the prompts Gemini CLI's own slash commands submit begin, and the command the person typed.
_COMMAND_PROMPTS = (
    (
        "You are an AI agent that brings the power of Gemini directly into the terminal. Your task is to analyze "
        "the current directory and generate a comprehensive GEMINI.md file",
        "/init",
    ),
)
_FAILED = frozenset({"error", "cancelled", "canceled"})
_REPLY_PARTS = frozenset({EventType.ASSISTANT_RESPONSE, EventType.TOOL_CALL})


class GeminiCliAdapter(ObjectAdapter):
    """Normalize Gemini CLI chat records (either version)."""

    harness = "gemini-cli"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one record."""
        if data.get("record") in (HEADER_RECORD, MESSAGE_RECORD):
            return _document_record(data, ctx)
        if isinstance(data.get("$set"), dict):
            return _title(data["$set"], ctx)
        if "type" in data:
            return _message(data, ctx)
        if as_str(data.get("sessionId")):
            return _header(data, ctx)
        return [IngestError("unknown_record", "neither a Gemini CLI session header nor a message")]


def _document_record(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    """Read a record of a whole-document chat: its header, or one message with the header as it is now."""
    header = as_dict(data.get("session"))
    if data["record"] == HEADER_RECORD:
        return _header(header, ctx)
    out = _title(header, ctx)
    message = data.get("message")
    if not isinstance(message, dict):
        out.append(IngestError("malformed_record", f"message {data.get('index')} is not an object"))
        return out
    if not as_str(message.get("id")):  # the newest message is read again: its position names it
        message = {**message, "id": f"#{data.get('index')}"}
    return out + _message(message, ctx)


def _session(ctx: StreamContext) -> str:
    return as_str(ctx.state.get("session")) or ctx.path.stem.removeprefix("session-")


def _header(header: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    session = as_str(header.get("sessionId")) or _session(ctx)
    ctx.state["session"] = session
    out: list[Emitted] = []
    started = read_timestamp(header.get("startTime"), out)
    cwd = project_root(ctx.path)
    if cwd:
        ctx.state["cwd"] = cwd
    out.append(SessionInfo(session=session, cwd=cwd, started_at=started))
    return out + _title(header, ctx)


def _title(header: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    summary = as_str(header.get("summary"))
    if summary and changed(ctx.state, "title", summary):
        return [SessionInfo(session=_session(ctx), title=summary)]
    return []


def _message(message: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    session = _session(ctx)
    out: list[Emitted] = []
    timestamp = read_timestamp(message.get("timestamp"), out)
    kind = message.get("type")
    message_id = as_str(message.get("id"))
    record = RecordEvents(
        session, timestamp, as_str(ctx.state.get("cwd")), provenance={"message_type": kind, "id": message_id}
    )
    content = parts_text(message.get("content"))
    state = ctx.state
    if kind == "user":
        if content and first_sight(state, message_id, "user"):
            out.extend(_prompt(content, record))
    elif kind == "gemini":
        out.extend(_reply(message, message_id, content, record, ctx))
    elif kind in _NOTICES:
        if content and first_sight(state, message_id, "notice"):
            out.append(record.event(EventType.SYSTEM, text=content))
    return out


def _prompt(content: str, record: RecordEvents) -> list[Emitted]:
    command = next((typed for head, typed in _COMMAND_PROMPTS if content.lstrip().startswith(head)), None)
    if command is None:
        return [record.event(EventType.USER_INPUT, text=content, starts_turn=bool(content.strip()))]
    return [
        record.event(EventType.USER_INPUT, text=command, starts_turn=True),
        record.event(EventType.SYSTEM, text=content, provenance={"injected": command}),
    ]


def _reply(
    message: dict[str, Any], message_id: str | None, content: str, record: RecordEvents, ctx: StreamContext
) -> list[Emitted]:
    state = ctx.state
    model = as_str(message.get("model"))
    out: list[Emitted] = []
    if model and changed(state, "model", model):
        out.append(SessionInfo(session=record.session, model=model))
    events: list[Event] = []
    for thought in as_list(message.get("thoughts")):
        text = _thought(thought)
        if text and first_sight(state, message_id, "thought:" + text_digest(text)):
            events.append(record.reasoning(text, model))
    calls = [call for call in as_list(message.get("toolCalls")) if isinstance(call, dict)]
    if content and first_sight(state, message_id, "text:" + text_digest(content)):
        events.append(record.answer(content, model, final=not calls))
    for call in calls:
        events.extend(_call(call, record, model, message_id, state))
    # The reply's counts go on its text or first tool call, not on its thoughts: Gemini CLI writes a reply's
    # thoughts first, while its counts still grow, and its text and calls once the model call has ended.
    usage = _usage(message.get("tokens"))
    said = [e for e in events if e.type in _REPLY_PARTS]
    if said and usage is not None and first_sight(state, message_id, "usage"):
        said[0].usage = usage
    return out + list(events)


def _thought(thought: Any) -> str:
    fields = as_dict(thought)
    subject, description = as_str(fields.get("subject")), as_str(fields.get("description"))
    return "\n".join(part for part in (subject, description) if part)


def _call(
    call: dict[str, Any],
    record: RecordEvents,
    model: str | None,
    message_id: str | None,
    state: dict[str, Any],
) -> list[Event]:
    call_id = as_str(call.get("id"))
    events: list[Event] = []
    made = record.tool_call(as_str(call.get("name")), call_id, call.get("args"), model)
    if first_sight(state, message_id, f"call:{call_id}"):
        events.append(made)
    status = as_str(call.get("status"))
    for result in as_list(call.get("result")):
        response = as_dict(as_dict(result).get("functionResponse"))
        if not response or not first_sight(state, message_id, f"result:{call_id}"):
            continue
        payload = as_dict(response.get("response"))
        text = payload.get("output", payload.get("error", response.get("response")))
        events.append(
            record.response_to(
                made,
                output_text(text) if text is not None else "",
                tool_error=(status in _FAILED or "error" in payload) if status or payload else None,
                provenance={"status": status} if status else {},
            )
        )
    return events


def _usage(tokens: Any) -> TokenUsage | None:
    counts = as_dict(tokens)
    if not counts:
        return None
    # Gemini's prompt count includes the cached tokens, and its output count leaves the thoughts out (billed as
    # output): Moraine's input excludes cache reads and its output includes reasoning (``TokenUsage``).
    prompt, cached = as_int(counts.get("input")), as_int(counts.get("cached"))
    output, thoughts = as_int(counts.get("output")), as_int(counts.get("thoughts"))
    return TokenUsage(
        input=max(0, prompt - (cached or 0)) if prompt is not None else None,
        output=(output or 0) + (thoughts or 0) if output is not None or thoughts is not None else None,
        cache_read=cached,
        reasoning=thoughts,
    )
