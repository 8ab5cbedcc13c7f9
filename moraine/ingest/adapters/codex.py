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

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from moraine.ingest.adapters._calls import recall_call, remember_call
from moraine.ingest.adapters._codex_output import read_tool_output
from moraine.ingest.adapters._text import message_text, render_call, text_digest
from moraine.ingest.adapters.base import StreamContext
from moraine.ingest.adapters.fields import (
    as_dict,
    as_int,
    as_str,
    canonical_tool_name,
    json_text,
    parse_json_string,
    parse_timestamp,
    trailing_uuid,
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

__all__ = ["CodexAdapter"]

# Codex injects these as role-user messages; they are context, not something the person typed.
_INJECTED_PREFIXES = (
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions",
    "<turn_aborted>",
    "<user_shell_command>",
    "<skill>",
    "<permissions instructions>",
    "<collaboration_mode>",
    "<INSTRUCTIONS>",
    "<personality_spec>",
    "<subagent_notification>",
    "<user_action>",
)
_ITEM_TYPES = frozenset(
    {
        "message",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
        "web_search_call",
        "reasoning",
        "ghost_snapshot",
    }
)
_RUNTIME_MSGS = frozenset({"task_started", "token_count", "error", "stream_error", "shutdown_complete"})
_MIRROR_MSGS = {"user_message": "user", "agent_message": "assistant", "agent_reasoning": "reasoning"}
_ABORT_KINDS = {
    "interrupted": TerminalKind.INTERRUPTED,
    "replaced": TerminalKind.CANCELLED,
    "review_ended": TerminalKind.STOPPED,
}
_MIRROR_LIMIT = 32


class CodexAdapter:
    """Normalize Codex rollout records (see the module docstring for the decisions)."""

    harness = "codex"

    def normalize(self, record: RawRecord, ctx: StreamContext) -> Iterable[Emitted]:
        """Return the events, session metadata and ingest errors of one rollout line."""
        data = record.data
        if not isinstance(data, dict):
            return [IngestError("malformed_record", f"expected a JSON object, got {type(data).__name__}")]
        timestamp, error = parse_timestamp(data.get("timestamp"))
        rec = _Record(ctx, timestamp)
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
        elif kind in _ITEM_TYPES:  # legacy rollouts: response items at the top level
            _response_item(rec, data, legacy=True)
        elif kind is None and "id" in data and "timestamp" in data:  # legacy header line
            _session_meta(rec, data)
        elif kind is None and data.get("record_type") == "state":
            rec.event(EventType.SYSTEM, "state", "legacy rollout state", record_type="state")
        elif isinstance(kind, str):
            rec.event(EventType.UNKNOWN, kind, message_text(payload) or json_text(payload), record_type=kind)
        else:
            rec.out.append(IngestError("malformed_record", "codex record has no string 'type'"))
        return rec.out


class _Record:
    """One rollout line being normalized: the stream state, its timestamp and what it has emitted."""

    def __init__(self, ctx: StreamContext, timestamp: datetime | None) -> None:
        self.ctx = ctx
        self.state = ctx.state
        self.timestamp = timestamp
        self.out: list[Emitted] = []

    @property
    def session(self) -> str:
        session = self.state.get("session")
        if not isinstance(session, str):
            session = trailing_uuid(self.ctx.path.stem) or self.ctx.path.stem
            self.state["session"] = session
        return session

    @property
    def model(self) -> str | None:
        return as_str(self.state.get("model"))

    def event(
        self, type_: EventType, payload_type: str | None, text: str, *, record_type: str, **fields: Any
    ) -> Event:
        provenance: dict[str, Any] = {"record_type": record_type}
        if payload_type is not None and payload_type != record_type:
            provenance["payload_type"] = payload_type
        provenance.update(fields.pop("provenance", {}))
        event = Event(
            session=self.session,
            type=type_,
            text=text,
            timestamp=self.timestamp,
            cwd=as_str(self.state.get("cwd")),
            provenance=provenance,
            **fields,
        )
        self.out.append(event)
        return event

    def bad_field(self, where: str, value: Any, expected: str) -> None:
        self.out.append(
            IngestError("invalid_field", f"codex {where}: expected {expected}, got {type(value).__name__}")
        )

    def text_field(self, payload: dict[str, Any], key: str, where: str) -> str | None:
        value = payload.get(key)
        if value is None or isinstance(value, str):
            return value or None
        self.bad_field(f"{where}.{key}", value, "a string")
        return None


def _session_meta(rec: _Record, payload: dict[str, Any]) -> None:
    session_id = rec.text_field(payload, "id", "session_meta")
    if session_id and not rec.state.get("session_from_meta"):
        rec.state["session"] = session_id
        rec.state["session_from_meta"] = True
    cwd = rec.text_field(payload, "cwd", "session_meta")
    if cwd:
        rec.state["cwd"] = cwd
    started, error = parse_timestamp(payload.get("timestamp"))
    if error is not None:
        rec.out.append(error)
    rec.out.append(SessionInfo(session=rec.session, cwd=cwd, started_at=started or rec.timestamp))
    keep = ("originator", "cli_version", "source", "model_provider", "git", "forked_from_id")
    provenance = {key: payload[key] for key in keep if key in payload}
    if session_id and session_id != rec.session:
        provenance["session_meta_id"] = session_id
    header = f"Codex session {session_id or rec.session}" + (f" in {cwd}" if cwd else "")
    instructions = message_text(payload.get("base_instructions") or payload.get("instructions"))
    text = f"{header}\n\n{instructions}" if instructions else header
    rec.event(EventType.SYSTEM, None, text, record_type="session_meta", provenance=provenance)


def _turn_context(rec: _Record, payload: dict[str, Any]) -> None:
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


def _response_item(rec: _Record, payload: dict[str, Any], legacy: bool = False) -> None:
    record_type = "legacy" if legacy else "response_item"
    item_type = payload.get("type")
    if not isinstance(item_type, str):
        rec.out.append(IngestError("malformed_record", "codex response_item payload has no string 'type'"))
        return
    handler = _ITEM_HANDLERS.get(item_type)
    if handler is not None:
        handler(rec, payload, record_type)
    elif item_type == "ghost_snapshot":
        rec.event(EventType.SYSTEM, item_type, "ghost snapshot", record_type=record_type)
    else:
        text = message_text(payload) or json_text(payload)
        rec.event(EventType.UNKNOWN, item_type, text, record_type=record_type)


def _message(rec: _Record, payload: dict[str, Any], record_type: str) -> None:
    role = rec.text_field(payload, "role", "message")
    text = message_text(payload.get("content"))
    phase = rec.text_field(payload, "phase", "message")
    was_dual = bool(rec.state.get("dual"))
    if role in ("user", "assistant") and _consume_mirror(rec.state, role, [text]):
        return
    rec.state["dual"] = True
    provenance: dict[str, Any] = {"role": role} if role else {}
    if phase:
        provenance["phase"] = phase
    if "id" in payload:
        provenance["item_id"] = payload["id"]
    if role == "user":
        # In a rollout that mirrors messages, the user_message event that follows is the exact typed text.
        _user_text(rec, text, record_type, "message", provenance, first_user=not was_dual)
    elif role == "assistant":
        rec.event(
            EventType.ASSISTANT_RESPONSE,
            "message",
            text,
            record_type=record_type,
            model=rec.model,
            is_final_answer=phase != "commentary",
            provenance=provenance,
        )
    elif role in ("developer", "system"):
        rec.event(EventType.SYSTEM, "message", text, record_type=record_type, provenance=provenance)
    else:
        rec.event(EventType.UNKNOWN, "message", text, record_type=record_type, provenance=provenance)


def _user_text(
    rec: _Record,
    text: str,
    record_type: str,
    payload_type: str,
    provenance: dict[str, Any],
    *,
    first_user: bool,
) -> None:
    marker = next((p for p in _INJECTED_PREFIXES if text.lstrip().startswith(p)), None)
    if marker is not None:
        provenance["injected"] = marker
        rec.event(EventType.SYSTEM, payload_type, text, record_type=record_type, provenance=provenance)
        return
    if rec.state.get("in_task"):
        starts_turn = not rec.state.get("task_prompted")
        rec.state["task_prompted"] = True
    else:
        starts_turn = True
    rec.event(
        EventType.USER_INPUT,
        payload_type,
        text,
        record_type=record_type,
        starts_turn=starts_turn,
        provenance=provenance,
    )
    if first_user:
        _first_user_message(rec, text)


def _first_user_message(rec: _Record, text: str) -> None:
    if text.strip() and not rec.state.get("first_user"):
        rec.state["first_user"] = True
        rec.out.append(SessionInfo(session=rec.session, first_user_message=text))


def _function_call(rec: _Record, payload: dict[str, Any], record_type: str) -> None:
    item_type = str(payload["type"])
    name = rec.text_field(payload, "name", item_type)
    if "name" not in payload and item_type != "local_shell_call":
        rec.out.append(IngestError("invalid_field", f"codex {item_type} has no tool name"))
    call_id = rec.text_field(payload, "call_id", item_type) or as_str(payload.get("id"))
    if item_type == "local_shell_call":
        name = name or "local_shell"
        arguments = payload.get("action")
    elif item_type == "custom_tool_call":
        arguments = payload.get("input")
    else:
        arguments = parse_json_string(payload.get("arguments"))
    _tool_call(rec, item_type, record_type, name, call_id, arguments, payload.get("status"))


def _web_search_call(rec: _Record, payload: dict[str, Any], record_type: str) -> None:
    action = payload.get("action")
    call_id = as_str(payload.get("id")) or as_str(payload.get("call_id"))
    _tool_call(rec, "web_search_call", record_type, "web_search", call_id, action, payload.get("status"))


def _tool_call(
    rec: _Record,
    item_type: str,
    record_type: str,
    name: str | None,
    call_id: str | None,
    arguments: Any,
    status: Any,
) -> None:
    tool_name, is_moraine = canonical_tool_name(name) if name else (None, False)
    remember_call(rec.state, call_id, name)
    provenance: dict[str, Any] = {"original_tool_name": name} if name != tool_name else {}
    if isinstance(status, str):
        provenance["status"] = status
    shown = (
        {k: v for k, v in arguments.items() if k != "type"}
        if item_type == "web_search_call" and isinstance(arguments, dict)
        else arguments
    )
    rec.event(
        EventType.TOOL_CALL,
        item_type,
        render_call(tool_name or "tool", shown),
        record_type=record_type,
        content_format=ContentFormat.TOOL_CALL,
        tool_name=tool_name,
        tool_call_id=call_id,
        arguments=arguments,
        model=rec.model,
        is_moraine_tool=is_moraine,
        provenance=provenance,
    )


def _tool_output(rec: _Record, payload: dict[str, Any], record_type: str) -> None:
    item_type = str(payload["type"])
    call_id = rec.text_field(payload, "call_id", item_type)
    name = recall_call(rec.state, call_id)
    tool_name, is_moraine = canonical_tool_name(name) if name else (None, False)
    output = read_tool_output(payload.get("output"))
    provenance: dict[str, Any] = {"original_tool_name": name} if name != tool_name else {}
    provenance.update(output.details)
    rec.event(
        EventType.TOOL_RESPONSE,
        item_type,
        output.text,
        record_type=record_type,
        content_format=ContentFormat.TOOL_RESPONSE,
        tool_name=tool_name,
        tool_call_id=call_id,
        exit_code=output.exit_code,
        tool_error=output.tool_error,
        is_moraine_tool=is_moraine,
        provenance=provenance,
    )


def _reasoning(rec: _Record, payload: dict[str, Any], record_type: str) -> None:
    summary = [message_text(part) for part in _list(payload.get("summary"))]
    summary = [part for part in summary if part]
    readable = "\n".join(summary) or message_text(payload.get("content"))
    if _consume_mirror(rec.state, "reasoning", summary or [readable]):
        return
    rec.state["dual"] = True
    opaque = rec.text_field(payload, "encrypted_content", "reasoning")
    provenance: dict[str, Any] = {"item_id": payload["id"]} if "id" in payload else {}
    if opaque and readable:
        provenance["summary_text"] = readable
    rec.event(
        EventType.REASONING,
        "reasoning",
        opaque or readable,
        record_type=record_type,
        content_format=ContentFormat.REASONING,
        encrypted=opaque is not None,
        model=rec.model,
        provenance=provenance,
    )


def _event_msg(rec: _Record, payload: dict[str, Any]) -> None:
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
            EventType.RUNTIME, msg_type, _token_text(payload), record_type="event_msg", provenance=provenance
        )
    else:
        type_ = EventType.RUNTIME if msg_type in _RUNTIME_MSGS else EventType.SYSTEM
        text = message_text(payload) or msg_type.replace("_", " ")
        rec.event(type_, msg_type, text, record_type="event_msg", provenance=provenance)


def _mirror_msg(rec: _Record, payload: dict[str, Any], msg_type: str, provenance: dict[str, Any]) -> None:
    key = "text" if msg_type == "agent_reasoning" else "message"
    text = rec.text_field(payload, key, msg_type) or ""
    plain = as_str(payload.get("kind")) in (None, "plain")
    if rec.state.get("dual"):
        if msg_type == "user_message" and plain:
            _first_user_message(rec, text)  # the mirror is dropped, but it is exactly what the person typed
        return
    _remember_mirror(rec.state, _MIRROR_MSGS[msg_type], text)
    if msg_type == "user_message":
        if not plain:
            provenance["injected"] = payload.get("kind")
            rec.event(EventType.SYSTEM, msg_type, text, record_type="event_msg", provenance=provenance)
        else:
            _user_text(rec, text, "event_msg", msg_type, provenance, first_user=True)
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


def _remember_mirror(state: dict[str, Any], kind: str, text: str) -> None:
    mirrors = state.get("mirrors")
    if not isinstance(mirrors, list):
        mirrors = []
    mirrors.append(f"{kind}:{text_digest(text)}")
    state["mirrors"] = mirrors[-_MIRROR_LIMIT:]


def _consume_mirror(state: dict[str, Any], kind: str, texts: list[str]) -> bool:
    """Return True (and forget them) when every text was already emitted by its event_msg form."""
    mirrors = state.get("mirrors")
    if not isinstance(mirrors, list) or not texts:
        return False
    keys = [f"{kind}:{text_digest(text)}" for text in texts]
    if not all(key in mirrors for key in keys):
        return False
    for key in keys:
        mirrors.remove(key)
    return True


def _token_text(payload: dict[str, Any]) -> str:
    usage = as_dict(as_dict(payload.get("info")).get("last_token_usage"))
    counts = {key: as_int(value) for key, value in usage.items()}
    shown = [f"{key}={value}" for key, value in counts.items() if value is not None]
    return "token usage: " + ", ".join(shown) if shown else "token usage"


def _compacted(rec: _Record, payload: dict[str, Any]) -> None:
    history = _list(payload.get("replacement_history"))
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


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


_Handler = Callable[[_Record, dict[str, Any]], None]
_ItemHandler = Callable[[_Record, dict[str, Any], str], None]
_HANDLERS: dict[str, _Handler] = {
    "session_meta": _session_meta,
    "turn_context": _turn_context,
    "response_item": _response_item,
    "event_msg": _event_msg,
    "compacted": _compacted,
}
_ITEM_HANDLERS: dict[str, _ItemHandler] = {
    "message": _message,
    "function_call": _function_call,
    "custom_tool_call": _function_call,
    "local_shell_call": _function_call,
    "web_search_call": _web_search_call,
    "function_call_output": _tool_output,
    "custom_tool_call_output": _tool_output,
    "reasoning": _reasoning,
}
