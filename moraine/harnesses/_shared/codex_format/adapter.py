"""Codex rollouts (``~/.codex/sessions/**/rollout-<time>-<uuid>.jsonl``) -> normalized events.

Each line is ``{"timestamp", "type", "payload"}`` with type ``session_meta``, ``turn_context``, ``response_item``
(what the model saw and said), ``event_msg`` (what the UI was told) or ``compacted``; very old rollouts wrote the
response items bare at the top level. Decisions:

- Turns. A real user message starts a turn; injected context (``<environment_context>``, AGENTS.md, ...) and
  developer messages are ``system``. Inside a task (``task_started`` .. ``task_complete``/``turn_aborted``) only the
  first real user message starts the turn; later ones (typed while the agent works) stay ``user_input``.
- Final answers. An assistant message is a final-answer candidate unless its phase is ``commentary``; the turn's
  final response is its last candidate. ``task_complete`` is the terminal event; ``turn_aborted`` ends the turn as
  interrupted (or cancelled/stopped, by its reason).
- Mirrors. ``event_msg`` user_message/agent_message/agent_reasoning repeat response items. Once a rollout has shown
  a response-item message or reasoning, these mirrors are dropped; a rollout with only the event forms keeps them,
  and a response item repeating an already emitted event form (same text) is dropped instead.
- Encrypted reasoning keeps its opaque payload as the event text (``encrypted``); a readable summary rides along
  in provenance as ``summary_text``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from moraine.harnesses._shared.codex_format._codex_events import event_msg
from moraine.harnesses._shared.codex_format._codex_items import ITEM_TYPES, response_item
from moraine.harnesses._shared.codex_format._codex_record import CodexRecord
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.text import message_text
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import (
    as_dict,
    as_list,
    as_str,
    json_text,
    parse_timestamp,
    read_timestamp,
)
from moraine.harness_api.model import Emitted, EventType, IngestError, SessionInfo

__all__ = ["CodexAdapter"]


class CodexAdapter(ObjectAdapter):
    """Normalize Codex rollout records (see the module docstring for the decisions)."""

    harness = "codex"
    guard_depth = True

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one rollout line."""
        timestamp, error = parse_timestamp(data.get("timestamp"))
        rec = CodexRecord(ctx, timestamp)
        if error is not None:
            rec.out.append(error)
        kind = data.get("type")
        payload = data.get("payload")
        if not isinstance(kind, str | None):
            rec.out.append(IngestError("malformed_record", "codex record has no string 'type'"))
        elif kind in _HANDLERS:
            if isinstance(payload, dict):
                _HANDLERS[kind](rec, payload)
            else:
                rec.out.append(IngestError("malformed_record", f"codex {kind} record has no payload object"))
        elif kind in ITEM_TYPES:  # legacy rollouts: response items at the top level
            response_item(rec, data, legacy=True)
        elif kind is None and "id" in data and "timestamp" in data:  # legacy header line
            _session_meta(rec, data)
        elif kind is None and data.get("record_type") == "state":
            rec.event(EventType.SYSTEM, "state", "legacy rollout state", record_type="state")
        elif isinstance(kind, str):
            rec.event(EventType.UNKNOWN, kind, message_text(payload) or json_text(payload), record_type=kind)
        else:
            rec.out.append(IngestError("malformed_record", "codex record has no string 'type'"))
        return rec.out


def _session_meta(rec: CodexRecord, payload: dict[str, Any]) -> None:
    session_id = rec.text_field(payload, "id", "session_meta")
    if session_id and not rec.state.get("session_from_meta"):
        rec.state["session"] = session_id
        rec.state["session_from_meta"] = True
    cwd = rec.text_field(payload, "cwd", "session_meta")
    if cwd:
        rec.state["cwd"] = cwd
    started = read_timestamp(payload.get("timestamp"), rec.out)
    rec.out.append(SessionInfo(session=rec.session, cwd=cwd, started_at=started or rec.timestamp))
    keep = ("originator", "cli_version", "source", "model_provider", "git", "forked_from_id")
    provenance = {key: payload[key] for key in keep if key in payload}
    if session_id and session_id != rec.session:
        provenance["session_meta_id"] = session_id
    header = f"Codex session {session_id or rec.session}" + (f" in {cwd}" if cwd else "")
    instructions = message_text(payload.get("base_instructions") or payload.get("instructions"))
    text = f"{header}\n\n{instructions}" if instructions else header
    rec.event(EventType.SYSTEM, None, text, record_type="session_meta", provenance=provenance)


def _turn_context(rec: CodexRecord, payload: dict[str, Any]) -> None:
    model = rec.text_field(payload, "model", "turn_context")
    cwd = rec.text_field(payload, "cwd", "turn_context")
    changed_model = model if model and model != rec.model else None
    changed_cwd = cwd if cwd and cwd != rec.state.get("cwd") else None
    if changed_model:
        rec.state["model"] = model
    if changed_cwd:
        rec.state["cwd"] = cwd
    if changed_model or changed_cwd:
        rec.out.append(SessionInfo(session=rec.session, model=changed_model, cwd=changed_cwd))
    settings: dict[str, Any] = {
        key: payload[key] for key in ("approval_policy", "effort", "summary") if key in payload
    }
    sandbox = as_dict(payload.get("sandbox_policy")).get("type")
    if sandbox is not None:
        settings["sandbox"] = sandbox
    parts = [f"model={model}"] if model else []
    parts += [f"{key}={json_text(value)}" for key, value in settings.items()]
    provenance: dict[str, Any] = {"turn_id": payload["turn_id"]} if "turn_id" in payload else {}
    rec.event(
        EventType.SYSTEM,
        None,
        "turn context: " + ", ".join(parts) if parts else "turn context",
        record_type="turn_context",
        provenance={**provenance, **settings, **({"model": model} if model else {})},
    )


def _compacted(rec: CodexRecord, payload: dict[str, Any]) -> None:
    history = as_list(payload.get("replacement_history"))
    summary = rec.text_field(payload, "message", "compacted")
    if summary is None:
        lines = []
        for item in history:
            item_text = message_text(as_dict(item).get("content")) or message_text(item)
            if item_text:
                role = as_str(as_dict(item).get("role")) or as_str(as_dict(item).get("type")) or "item"
                lines.append(f"{role}: {item_text}")
        summary = "\n".join(lines)
    rec.event(
        EventType.COMPACTION,
        None,
        summary,
        record_type="compacted",
        provenance={"replacement_items": len(history)},
    )


_Handler = Callable[[CodexRecord, dict[str, Any]], None]
_HANDLERS: dict[str, _Handler] = {
    "session_meta": _session_meta,
    "turn_context": _turn_context,
    "response_item": response_item,
    "event_msg": event_msg,
    "compacted": _compacted,
}
