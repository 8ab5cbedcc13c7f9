"""Codex ``event_msg`` records (what the UI was told): task lifecycle, token counts, and the message mirrors."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from moraine.harnesses._shared.codex_format._codex_record import (
    CodexRecord,
    first_user_message,
    remember_mirror,
    user_text,
)
from moraine.harnesses._shared.text import message_text
from moraine.harnesses._shared.usage import read_usage
from moraine.harnesses._shared.fields import as_dict, as_int, as_str
from moraine.harness_api.model import ContentFormat, EventType, IngestError, TerminalKind, TokenUsage

__all__ = ["event_msg"]

_RUNTIME_MSGS = frozenset({"task_started", "token_count", "error", "stream_error", "shutdown_complete"})

_MIRROR_MSGS = {"user_message": "user", "agent_message": "assistant", "agent_reasoning": "reasoning"}

_ABORT_KINDS = {
    "interrupted": TerminalKind.INTERRUPTED,
    "replaced": TerminalKind.CANCELLED,
    "review_ended": TerminalKind.STOPPED,
}


def event_msg(rec: CodexRecord, payload: dict[str, Any]) -> None:
    """Normalize one event_msg: lifecycle and accounting events, and mirrors unless response items exist."""
    msg_type = payload.get("type")
    if not isinstance(msg_type, str):
        rec.out.append(IngestError("malformed_record", "codex event_msg payload has no string 'type'"))
        return
    provenance: dict[str, Any] = {"turn_id": payload["turn_id"]} if "turn_id" in payload else {}
    if msg_type in _MIRROR_MSGS:
        _mirror_msg(rec, payload, msg_type, provenance)
    elif msg_type == "task_started":
        rec.state["in_task"] = True
        rec.state["task_prompted"] = False
        rec.event(EventType.RUNTIME, msg_type, "task started", record_type="event_msg", provenance=provenance)
    elif msg_type == "task_complete":
        rec.state["in_task"] = False
        rec.event(
            EventType.RUNTIME,
            msg_type,
            "task complete",
            record_type="event_msg",
            terminal=True,
            terminal_kind=TerminalKind.FINAL_RESPONSE,
            provenance=provenance,
        )
    elif msg_type == "turn_aborted":
        rec.state["in_task"] = False
        reason = as_str(payload.get("reason")) or "unknown"
        rec.event(
            EventType.RUNTIME,
            msg_type,
            f"turn aborted: {reason}",
            record_type="event_msg",
            terminal=True,
            terminal_kind=_ABORT_KINDS.get(reason, TerminalKind.CANCELLED),
            provenance={**provenance, "reason": reason},
        )
    elif msg_type == "token_count":
        rec.event(
            EventType.RUNTIME,
            msg_type,
            _token_text(payload),
            record_type="event_msg",
            model=rec.model,
            provenance=provenance,
            usage=_call_usage(rec, as_dict(payload.get("info"))),
        )
    else:
        type_ = EventType.RUNTIME if msg_type in _RUNTIME_MSGS else EventType.SYSTEM
        text = message_text(payload) or msg_type.replace("_", " ")
        rec.event(type_, msg_type, text, record_type="event_msg", provenance=provenance)


def _mirror_msg(rec: CodexRecord, payload: dict[str, Any], msg_type: str, provenance: dict[str, Any]) -> None:
    key = "text" if msg_type == "agent_reasoning" else "message"
    text = rec.text_field(payload, key, msg_type) or ""
    plain = as_str(payload.get("kind")) in (None, "plain")
    if rec.state.get("dual"):
        if msg_type == "user_message" and plain:
            first_user_message(rec, text)  # the mirror is dropped, but it is exactly what the person typed
        return
    remember_mirror(rec.state, _MIRROR_MSGS[msg_type], text)
    if msg_type == "user_message":
        if not plain:
            provenance["injected"] = payload.get("kind")
            rec.event(EventType.SYSTEM, msg_type, text, record_type="event_msg", provenance=provenance)
        else:
            user_text(rec, text, "event_msg", msg_type, provenance, first_user=True)
    elif msg_type == "agent_message":
        phase = as_str(payload.get("phase"))
        rec.event(
            EventType.ASSISTANT_RESPONSE,
            msg_type,
            text,
            record_type="event_msg",
            model=rec.model,
            is_final_answer=phase != "commentary",
            provenance={**provenance, **({"phase": phase} if phase else {})},
        )
    else:
        rec.event(
            EventType.REASONING,
            msg_type,
            text,
            record_type="event_msg",
            content_format=ContentFormat.REASONING,
            model=rec.model,
            provenance=provenance,
        )


def _call_usage(rec: CodexRecord, info: dict[str, Any]) -> TokenUsage | None:
    """Return the usage of the model call a token_count reports, once: Codex writes the same count again (the
    session's running ``total_token_usage`` unchanged) after a call, and each repeat would count its tokens twice.
    OpenAI counts cached tokens inside ``input_tokens`` and reasoning inside ``output_tokens``; Moraine's ``input``
    leaves cache reads out (``TokenUsage``)."""
    total = as_dict(info.get("total_token_usage"))
    seen = json.dumps(total, sort_keys=True) if total else None
    if seen is not None and seen == rec.state.get("usage_total"):
        return None
    rec.state["usage_total"] = seen
    usage = read_usage(
        info.get("last_token_usage"),
        input="input_tokens",
        output="output_tokens",
        cache_read="cached_input_tokens",
        reasoning="reasoning_output_tokens",
    )
    if usage is None or usage.input is None or usage.cache_read is None:
        return usage
    return replace(usage, input=max(0, usage.input - usage.cache_read))


def _token_text(payload: dict[str, Any]) -> str:
    usage = as_dict(as_dict(payload.get("info")).get("last_token_usage"))
    counts = {key: as_int(value) for key, value in usage.items()}
    shown = [f"{key}={value}" for key, value in counts.items() if value is not None]
    return "token usage: " + ", ".join(shown) if shown else "token usage"
