"""Hermes: live session files (source ``hermes``) and ShareGPT trajectory lines -> normalized events.

Live session records come from ``moraine.harnesses.hermes.reader``: a header (``session_id``, ``model``,
``session_start``) then one record per OpenAI-style message ``{role, content, reasoning, tool_calls, tool_call_id,
name, finish_reason}``. ``finish_reason: stop`` ends the turn with that message as the final answer, ``length``
ends it without one; an assistant message without ``finish_reason`` or tool calls is a final answer too.

A trajectory line ``{timestamp, model, completed, conversations: [{from: system|human|gpt|tool, value}]}`` is one
whole conversation (its session id is the SHA-256 of the line's content): ``gpt`` values carry ``<think>``,
``<tool_call>`` and plain text; ``tool`` values carry ``<tool_response>``. ``completed: true`` makes the last
``gpt`` text the final answer.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.chat import chat_event, function_call, said, tool_calls
from moraine.harnesses._shared.events import RecordEvents, mark_final_answer
from moraine.harnesses._shared.memory import changed
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.text import parts_text
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import (
    as_dict,
    as_list,
    as_str,
    output_text,
    parse_json_string,
    parse_timestamp,
    read_timestamp,
)
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo, TerminalKind
from moraine.harnesses.hermes.reader import HEADER_RECORD, MESSAGE_RECORD

__all__ = ["HermesAdapter"]

_TAG = re.compile(r"<(think|tool_call|tool_response)>(.*?)</\1>", re.DOTALL)


class HermesAdapter(ObjectAdapter):
    """Normalize Hermes live session records and trajectory lines."""

    harness = "hermes"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one record."""
        kind = data.get("record")
        if kind == HEADER_RECORD:
            return _header(as_dict(data.get("session")), ctx)
        if kind == MESSAGE_RECORD:
            return _live_message(data, ctx)
        if isinstance(data.get("conversations"), list):
            return _trajectory(data, ctx)
        return [IngestError("unknown_record", "neither a session record nor a trajectory line")]


def _session_id(header: dict[str, Any], ctx: StreamContext) -> str:
    return as_str(header.get("session_id")) or ctx.path.stem.removeprefix("session_")


def _header(header: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    session = _session_id(header, ctx)
    out: list[Emitted] = []
    started = read_timestamp(header.get("session_start"), out)
    model = as_str(header.get("model"))
    ctx.state["model"] = model
    out.append(
        SessionInfo(session=session, title=as_str(header.get("title")), model=model, started_at=started)
    )
    return out


def _live_message(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    header = as_dict(data.get("session"))
    session = _session_id(header, ctx)
    message = data.get("message")
    if not isinstance(message, dict):
        return [IngestError("malformed_record", f"message {data.get('index')} is not a JSON object")]
    out: list[Emitted] = []
    model = as_str(header.get("model"))
    if model and changed(ctx.state, "model", model):
        out.append(SessionInfo(session=session, model=model))
    timestamp = read_timestamp(message.get("timestamp"), out)
    provenance: dict[str, Any] = {"message_index": data.get("index"), "role": message.get("role")}
    if timestamp is None:
        # Messages carry no time of their own: a message is first seen in the version of the file Hermes wrote
        # at ``last_updated``, the closest recorded time to when it was said.
        timestamp, _ = parse_timestamp(header.get("last_updated"))
        provenance["timestamp_source"] = "session_last_updated" if timestamp is not None else None

    record = RecordEvents(session, timestamp, provenance=provenance)
    role = message.get("role")
    content = parts_text(message.get("content"))
    said = chat_event(message, content, record, ctx.state, spelling=False)
    if said is not None:
        out.append(said)
    elif role == "assistant":
        out.extend(_live_assistant(message, content, model, record, ctx))
    else:
        out.append(
            IngestError("unknown_record", f"message {data.get('index')}: unknown role {str(role)[:40]!r}")
        )
    return out


def _live_assistant(
    message: dict[str, Any], content: str, model: str | None, record: RecordEvents, ctx: StreamContext
) -> list[Emitted]:
    calls = tool_calls(message)
    finish = as_str(message.get("finish_reason"))
    final = finish == "stop" or (finish is None and not calls)
    ending = {"finish_reason": finish} if final else {}
    events = said(message, "reasoning", content, model, record, final, provenance=ending)
    events.extend(record.tool_call(*function_call(call), model, calls=ctx.state) for call in calls)
    if finish == "length" and events:
        events[-1].terminal = True
        events[-1].terminal_kind = TerminalKind.STOPPED
    return list(events)


def _trajectory(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    session = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    out: list[Emitted] = []
    timestamp = read_timestamp(data.get("timestamp"), out)
    model = as_str(data.get("model"))
    out.append(SessionInfo(session=session, model=model, started_at=timestamp))
    events: list[Event] = []
    for turn in as_list(data.get("conversations")):
        if not isinstance(turn, dict) or not isinstance(turn.get("value"), str):
            out.append(IngestError("malformed_record", "trajectory turn without a string value"))
            continue
        speaker, value = turn.get("from"), turn["value"]
        said = RecordEvents(
            session, timestamp, provenance={"trajectory": ctx.path.name, "turn_from": speaker}
        )
        if speaker == "system":
            events.append(said.event(EventType.SYSTEM, text=value))
        elif speaker == "human":
            events.append(said.event(EventType.USER_INPUT, text=value, starts_turn=bool(value.strip())))
        elif speaker == "gpt":
            events.extend(_gpt(value, model, said, ctx))
        elif speaker == "tool":
            events.extend(_tool_turn(value, said, ctx))
        else:
            out.append(IngestError("unknown_record", f"trajectory speaker {str(speaker)[:40]!r}"))
    if data.get("completed") is True:
        mark_final_answer(events)
    out.extend(events)
    return out


def _gpt(value: str, model: str | None, gpt: RecordEvents, ctx: StreamContext) -> list[Event]:
    events: list[Event] = []
    for match in _TAG.finditer(value):
        tag, body = match.group(1), match.group(2).strip()
        if tag == "think":
            events.append(gpt.reasoning(body, model))
        elif tag == "tool_call":
            call = as_dict(parse_json_string(body))
            name, call_id = as_str(call.get("name")), as_str(call.get("id"))
            arguments = parse_json_string(call.get("arguments"))
            events.append(gpt.tool_call(name, call_id, arguments, model, calls=ctx.state))
    text = _TAG.sub("", value).strip()
    if text:
        events.append(gpt.answer(text, model))
    return events


def _tool_turn(value: str, tool: RecordEvents, ctx: StreamContext) -> list[Event]:
    events: list[Event] = []
    bodies = [m.group(2).strip() for m in _TAG.finditer(value) if m.group(1) == "tool_response"] or [value]
    for body in bodies:
        response = parse_json_string(body)
        fields = as_dict(response)
        call_id = as_str(fields.get("tool_call_id"))
        name = as_str(fields.get("name")) or recall_call(ctx.state, call_id)
        payload = fields.get("content", response) if fields else response
        events.append(tool.canonical_response(name, call_id, output_text(payload), spelling=False))
    return events
