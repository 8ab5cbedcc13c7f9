"""The Codex line being normalized, and the stream memory its handlers share: turns, first user message, mirrors.

``CodexRecord`` carries one rollout line's timestamp and output list over the stream's checkpointed state. The turn
rule (one turn start per task), the first user message and the mirror memory (``event_msg`` copies of response
items) live here because both the response-item and the event handlers consult them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.text import text_digest
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_str, trailing_uuid
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo

__all__ = [
    "CodexRecord",
    "consume_mirror",
    "first_user_message",
    "remember_mirror",
    "split_ide_context",
    "user_text",
]

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

# The Codex IDE extension and desktop app send a prompt as the context they gathered (open tabs, the active file,
# files the person attached) under one of these headings, then the person's own words under ``_REQUEST``.
_CONTEXT_HEADINGS = ("# Context from my IDE setup:", "# Files mentioned by the user:")
_REQUEST = "## My request for Codex:"

_MIRROR_LIMIT = 32


class CodexRecord:
    """One rollout line being normalized: the stream state, its timestamp and what it has emitted."""

    def __init__(self, ctx: StreamContext, timestamp: datetime | None) -> None:
        self.ctx = ctx
        self.state = ctx.state
        self.timestamp = timestamp
        self.out: list[Emitted] = []

    @property
    def session(self) -> str:
        """Return the rollout's session id (session_meta id, else the file name's UUID, else its stem)."""
        session = self.state.get("session")
        if not isinstance(session, str):
            session = trailing_uuid(self.ctx.path.stem) or self.ctx.path.stem
            self.state["session"] = session
        return session

    @property
    def model(self) -> str | None:
        """Return the model of the current turn context, if any."""
        return as_str(self.state.get("model"))

    def event(
        self, type_: EventType, payload_type: str | None, text: str, *, record_type: str, **fields: Any
    ) -> Event:
        """Emit an event of this line with the shared fields and provenance filled in."""
        provenance: dict[str, Any] = {"record_type": record_type}
        if payload_type is not None and payload_type != record_type:
            provenance["payload_type"] = payload_type
        line = RecordEvents(
            self.session, self.timestamp, as_str(self.state.get("cwd")), provenance=provenance
        )
        event = line.event(type_, text=text, **fields)
        self.out.append(event)
        return event

    def bad_field(self, where: str, value: Any, expected: str) -> None:
        """Record an ingest error for a field of the wrong type."""
        self.out.append(
            IngestError("invalid_field", f"codex {where}: expected {expected}, got {type(value).__name__}")
        )

    def text_field(self, payload: dict[str, Any], key: str, where: str) -> str | None:
        """Return a string field (None when absent or empty), reporting a value of the wrong type."""
        value = payload.get(key)
        if value is None or isinstance(value, str):
            return value or None
        self.bad_field(f"{where}.{key}", value, "a string")
        return None


def user_text(
    rec: CodexRecord,
    text: str,
    record_type: str,
    payload_type: str,
    provenance: dict[str, Any],
    *,
    first_user: bool,
) -> None:
    """Emit user text: injected context as system, else user input that starts a turn once per task (the context
    an IDE sent before the person's request is system text of its own)."""
    marker = next((p for p in _INJECTED_PREFIXES if text.lstrip().startswith(p)), None)
    if marker is not None:
        provenance["injected"] = marker
        rec.event(EventType.SYSTEM, payload_type, text, record_type=record_type, provenance=provenance)
        return
    split = split_ide_context(text)
    context = None
    if split is not None:
        context, text = split
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
    if context:  # after the request, so that it falls in the turn the request opens
        injected = {**provenance, "injected": "ide_context"}
        rec.event(EventType.SYSTEM, payload_type, context, record_type=record_type, provenance=injected)
    if first_user:
        first_user_message(rec, text)


def split_ide_context(text: str) -> tuple[str, str] | None:
    """Return (the IDE's context, the person's request) of a prompt an IDE wrapped, or None for any other text."""
    if not text.lstrip().startswith(_CONTEXT_HEADINGS):
        return None
    context, found, request = text.rpartition(_REQUEST)
    if not found:
        return None
    return context.strip(), request.strip()


def first_user_message(rec: CodexRecord, text: str) -> None:
    """Report the session's first user message, once (the person's request, without the context an IDE sent)."""
    split = split_ide_context(text)
    if split is not None:
        text = split[1]
    if text.strip() and not rec.state.get("first_user"):
        rec.state["first_user"] = True
        rec.out.append(SessionInfo(session=rec.session, first_user_message=text))


def remember_mirror(state: dict[str, Any], kind: str, text: str) -> None:
    """Remember that an event_msg form of this text was emitted (so its response item is dropped)."""
    mirrors = state.get("mirrors")
    if not isinstance(mirrors, list):
        mirrors = []
    mirrors.append(f"{kind}:{text_digest(text)}")
    state["mirrors"] = mirrors[-_MIRROR_LIMIT:]


def consume_mirror(state: dict[str, Any], kind: str, texts: list[str]) -> bool:
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
