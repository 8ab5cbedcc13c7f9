"""Qwen Code chat records (``~/.qwen/projects/*/chats/*.jsonl``) -> normalized events.

One JSON ``ChatRecord`` per line: ``{uuid, parentUuid, sessionId, timestamp, type, subtype, cwd, model, message:
{role, parts}, toolCallResult, systemPayload}``. A model record is one model response: its parts are reasoning
(``thought: true``), text, and ``functionCall``s. A response without function calls ends the agent loop, so its last
text part is the turn's final answer. Telemetry, file snapshots and unknown record types stay out of the index.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.events import RecordEvents, mark_final_answer
from moraine.harnesses._shared.memory import changed
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, output_text, read_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo

__all__ = ["QwenAdapter"]

_SYSTEM_USER_SUBTYPES = frozenset({"notification", "cron"})
_FAILED_STATUSES = frozenset({"error", "failed", "cancelled", "canceled"})


class QwenAdapter(ObjectAdapter):
    """Normalize Qwen Code chat records."""

    harness = "qwen-code"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one chat record."""
        session = as_str(data.get("sessionId")) or ctx.state.get("session") or ctx.path.stem
        out: list[Emitted] = []
        if changed(ctx.state, "session", session):
            ctx.state.pop("cwd", None)
        cwd = as_str(data.get("cwd"))
        if cwd and changed(ctx.state, "cwd", cwd):
            out.append(SessionInfo(session=session, cwd=cwd))
        timestamp = read_timestamp(data.get("timestamp"), out)
        kind = data.get("type")
        provenance: dict[str, Any] = {"record_type": kind}
        for key, name in (("uuid", "uuid"), ("parentUuid", "parent_uuid")):
            value = as_str(data.get(key))
            if value:
                provenance[name] = value
        base = RecordEvents(session, timestamp, cwd, provenance=provenance)
        if kind == "user":
            out.extend(_user(data, base))
        elif kind == "assistant":
            out.extend(_assistant(data, base, ctx))
        elif kind == "tool_result":
            out.extend(_tool_result(data, base))
        elif kind == "system":
            out.extend(_system(data, base))
        return out


def _parts(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [part for part in as_list(as_dict(data.get("message")).get("parts")) if isinstance(part, dict)]


def _text_parts(parts: list[dict[str, Any]]) -> str:
    return "\n".join(
        part["text"] for part in parts if isinstance(part.get("text"), str) and not part.get("thought")
    )


def _user(data: dict[str, Any], base: RecordEvents) -> list[Emitted]:
    subtype = as_str(data.get("subtype"))
    text = _text_parts(_parts(data))
    extra = {"subtype": subtype} if subtype else {}
    if subtype in _SYSTEM_USER_SUBTYPES:
        return [base.event(EventType.SYSTEM, text=text, provenance=extra)]
    # A message typed while the agent works joins the running turn, as does an attachment-only message (no
    # text); any other user record opens one.
    starts_turn = subtype != "mid_turn_user_message" and bool(text)
    return [base.event(EventType.USER_INPUT, text=text, starts_turn=starts_turn, provenance=extra)]


def _assistant(data: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    model = as_str(data.get("model"))
    model_changed = bool(model) and changed(ctx.state, "model", model)
    parts = _parts(data)
    calls_tools = any(isinstance(part.get("functionCall"), dict) for part in parts)
    events: list[Event] = []
    for part in parts:
        call = part.get("functionCall")
        if isinstance(call, dict):
            events.append(_tool_call(call, base, model))
        elif isinstance(part.get("text"), str) and part.get("thought"):
            events.append(base.reasoning(part["text"], model))
        elif isinstance(part.get("text"), str):
            events.append(base.answer(part["text"], model))
    if not calls_tools:
        mark_final_answer(events)
    out: list[Emitted] = list(events)
    if model_changed:
        out.insert(0, SessionInfo(session=base.session, model=model))
    return out


def _tool_call(call: dict[str, Any], base: RecordEvents, model: str | None) -> Event:
    call_id = as_str(call.get("id")) or as_str(base.provenance.get("uuid"))
    return base.tool_call(as_str(call.get("name")), call_id, call.get("args"), model)


def _tool_result(data: dict[str, Any], base: RecordEvents) -> list[Emitted]:
    result = as_dict(data.get("toolCallResult"))
    status = as_str(result.get("status"))
    events: list[Emitted] = []
    for part in _parts(data):
        response = part.get("functionResponse")
        if not isinstance(response, dict):
            continue
        call_id = (
            as_str(result.get("callId")) or as_str(response.get("id")) or as_str(base.provenance.get("uuid"))
        )
        payload = response.get("response")
        events.append(
            base.canonical_response(
                as_str(response.get("name")) or "unknown",
                call_id,
                output_text(payload) if payload is not None else "",
                tool_error=status in _FAILED_STATUSES if status else None,
                provenance={"status": status} if status else {},
            )
        )
    return events


def _system(data: dict[str, Any], base: RecordEvents) -> list[Emitted]:
    subtype = as_str(data.get("subtype"))
    payload = as_dict(data.get("systemPayload"))
    extra = {"subtype": subtype}
    if subtype == "custom_title":
        title = as_str(payload.get("customTitle"))
        if not title:
            return [IngestError("malformed_record", "custom_title record without a customTitle string")]
        return [
            SessionInfo(session=base.session, title=title),
            base.event(EventType.SYSTEM, text=title, provenance=extra),
        ]
    if subtype == "chat_compression":
        # The compressed history replays earlier messages: it is not indexed again.
        return [base.event(EventType.COMPACTION, text="", provenance=extra)]
    if subtype == "rewind":
        return [base.event(EventType.SYSTEM, text="", provenance=extra)]
    return []
