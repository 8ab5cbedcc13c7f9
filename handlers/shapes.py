"""Turn store records into the contract's objects (session refs, turn summaries, event summaries, content).

Each function builds a generated model and sets exactly the fields the contract shows for it (a field left unset is
left out of the response, which the server dumps with ``exclude_unset``), nulls included.
"""

from __future__ import annotations

import json
from typing import Any, TypedDict

from generated.models import (
    ContentFormat,
    EventContent,
    EventId,
    EventSummary,
    EventType,
    OpenedEvent,
    OpenedSession,
    OpenedTurn,
    SearchableEventType,
    SessionBrief,
    SessionId,
    SessionRef,
    TextExcerpt,
    TurnDigest,
    TurnId,
    TurnSummary,
    TurnSummaryOpen,
)
from moraine import ids
from moraine.placeholders import ENCRYPTED_REASONING_PLACEHOLDER
from moraine.store.reads import events
from moraine.store.reads.labels import session_title
from moraine.store.reads.sessions import SessionRecord
from moraine.resume import resume_command
from moraine.store.reads.timestamps import format_timestamp
from moraine.store.reads.turns import TurnRecord

__all__ = [
    "as_event_id",
    "as_session_id",
    "as_turn_id",
    "event_content",
    "event_summary",
    "opened_event",
    "opened_session",
    "opened_turn",
    "session_brief",
    "session_ref",
    "session_ref_fields",
    "turn_digest",
    "turn_summary",
]


def as_session_id(key: int) -> SessionId:
    """Return the contract's ID of a session."""
    return SessionId(ids.session_id(key))


def as_turn_id(key: int, turn_seq: int) -> TurnId:
    """Return the contract's ID of a turn."""
    return TurnId(ids.turn_id(key, turn_seq))


def as_event_id(key: int, seq: int) -> EventId:
    """Return the contract's ID of an event."""
    return EventId(ids.event_id(key, seq))


# The larger contract objects start with the fields of smaller ones, built once here (typed dicts passed on with
# ``**``); a response lists the fields in the contract's order whatever the order of the call.


class _BriefFields(TypedDict):
    id: SessionId
    title: str | None
    source: str
    harness: str


class SessionRefFields(_BriefFields):
    """The fields of a search hit's session, which the opened and listed sessions start with."""

    started_at: str | None
    updated_at: str | None
    completed: bool


def _brief_fields(s: SessionRecord) -> _BriefFields:
    return _BriefFields(
        id=as_session_id(s.key),
        title=session_title(s.title, s.first_user_message),
        source=s.source,
        harness=s.harness,
    )


def session_ref_fields(s: SessionRecord) -> SessionRefFields:
    """Return the fields of ``session_ref``, for the session objects that add to them."""
    return SessionRefFields(
        **_brief_fields(s),
        started_at=format_timestamp(s.started_at),
        updated_at=format_timestamp(s.updated_at),
        completed=s.completed,
    )


def session_brief(s: SessionRecord) -> SessionBrief:
    """Return the parent-session object of an opened turn or event."""
    return SessionBrief(**_brief_fields(s))


def session_ref(s: SessionRecord) -> SessionRef:
    """Return the session object of a search hit."""
    return SessionRef(**session_ref_fields(s))


def opened_session(s: SessionRecord) -> OpenedSession:
    """Return the session object of ``open(session)``, with the harness's own ID and its resume command."""
    return OpenedSession(
        **session_ref_fields(s),
        turn_count=s.turn_count,
        event_count=s.event_count,
        native_id=s.native_id,
        resume_command=resume_command(s.harness, s.native_id, s.cwd),
    )


def _excerpt(key: int, seq: int | None, text: str, truncated: bool) -> TextExcerpt | None:
    if seq is None:
        return None
    return TextExcerpt(event_id=as_event_id(key, seq), text=text, truncated=truncated)


def turn_digest(t: TurnRecord) -> TurnDigest:
    """Return user input / final response excerpts, tools called and event types of a turn."""
    return TurnDigest(
        user_input=_excerpt(t.key, t.user_input_seq, t.user_input_text, t.user_input_truncated),
        # Never a final response for an unfinished turn (the interface document: null while incomplete).
        final_response=_excerpt(t.key, t.final_seq, t.final_text, t.final_truncated) if t.completed else None,
        tools_called=list(dict.fromkeys(t.tools_called)),
        event_types=[EventType(e) for e in dict.fromkeys(t.event_types) if e != "unknown"],
    )


class _TurnFields(TypedDict):
    """The fields a turn summary and an opened turn share."""

    id: TurnId
    ordinal: int
    completed: bool
    terminal_event_id: EventId | None
    event_count: int
    started_at: str | None
    updated_at: str | None


def _turn_fields(t: TurnRecord) -> _TurnFields:
    terminal = None if t.terminal_seq is None else EventId(ids.event_id(t.key, t.terminal_seq))
    return _TurnFields(
        id=TurnId(ids.turn_id(t.key, t.turn_seq)),
        ordinal=t.turn_seq,
        completed=t.completed,
        terminal_event_id=terminal,
        event_count=t.event_count,
        started_at=format_timestamp(t.started_at),
        updated_at=format_timestamp(t.updated_at),
    )


def turn_summary(t: TurnRecord) -> TurnSummary:
    """Return the compact turn summary used in session pages."""
    digest, fields = turn_digest(t), _turn_fields(t)
    return TurnSummary(
        **fields,
        user_input=digest.user_input,
        final_response=digest.final_response,
        tools_called=digest.tools_called,
        event_types=[SearchableEventType(e.value) for e in digest.event_types],
        open=TurnSummaryOpen(turn_id=fields["id"], terminal_event_id=fields["terminal_event_id"]),
    )


def opened_turn(t: TurnRecord) -> OpenedTurn:
    """Return the turn object of ``open(turn)``."""
    return OpenedTurn(**_turn_fields(t), session_id=as_session_id(t.key))


class _EventFields(TypedDict):
    """The fields an event summary and an opened event share."""

    id: EventId
    ordinal: int
    type: EventType
    timestamp: str | None
    terminal: bool
    tool_name: str | None
    model: str | None


def _event_fields(e: events.EventSummary | events.EventDetail) -> _EventFields:
    return _EventFields(
        id=as_event_id(e.key, e.seq),
        ordinal=e.ordinal,
        type=EventType(e.type),
        timestamp=format_timestamp(e.timestamp),
        terminal=e.terminal,
        tool_name=e.tool_name,
        model=e.model,
    )


def event_summary(e: events.EventSummary) -> EventSummary:
    """Return the compact event summary used in turn pages (encrypted reasoning shows a placeholder)."""
    return EventSummary(
        **_event_fields(e),
        summary=ENCRYPTED_REASONING_PLACEHOLDER if e.encrypted else e.summary,
        truncated=False if e.encrypted else e.summary_truncated,
    )


def opened_event(e: events.EventDetail) -> OpenedEvent:
    """Return the event object of ``open(event)``."""
    return OpenedEvent(
        **_event_fields(e),
        session_id=as_session_id(e.key),
        turn_id=as_turn_id(e.key, e.turn_seq),
        originating_model=e.originating_model,
    )


def _arguments(raw: str | None) -> Any:
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _call_text(name: str | None, arguments: Any) -> str:
    if isinstance(arguments, dict):
        inner = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in arguments.items())
    elif arguments is None:
        inner = ""
    else:
        inner = json.dumps(arguments, ensure_ascii=False)
    return f"{name or 'tool'}({inner})"


def event_content(e: events.EventDetail) -> EventContent:
    """Return the full content of an event, shaped by its content format (never truncated)."""
    if e.content_format == "tool_call" or e.type == "tool_call":
        arguments = _arguments(e.arguments)
        return EventContent(
            format=ContentFormat.tool_call,
            tool_name=e.tool_name,
            arguments=arguments,
            text=e.text or _call_text(e.tool_name, arguments),
            truncated=False,
        )
    if e.content_format == "tool_response" or e.type == "tool_response":
        return EventContent(
            format=ContentFormat.tool_response,
            tool_name=e.tool_name,
            exit_code=e.exit_code,
            text=e.text,
            truncated=False,
        )
    if e.content_format == "reasoning" or e.type == "reasoning":
        # ``encrypted`` is a field the schema allows beside its own (extra), so it is given by name.
        return EventContent.model_validate(
            {"format": ContentFormat.reasoning, "text": e.text, "encrypted": e.encrypted, "truncated": False}
        )
    return EventContent(format=ContentFormat.text, text=e.text, truncated=False)
