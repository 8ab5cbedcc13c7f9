"""Read a whole session or turn through ``open``: turn pages, then each turn's event pages, then each event.

Nothing here touches the store: every read is a tool call (in the daemon, or on the store opened by the command),
so the transcript holds exactly what ``open`` returns to agents, redacted at ingest like everything else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from generated.models import (
    EventContent,
    EventSummary,
    OpenData,
    OpenEventData,
    OpenSessionData,
    OpenTurnData,
    TurnSummary,
)
from moraine.server.service import ToolCall

__all__ = ["ExportError", "Transcript", "TranscriptEvent", "TranscriptTurn", "walk_transcript"]


class ExportError(Exception):
    """A read failed: ``envelope`` is the tool's error envelope (None when the ID is not a session or turn)."""

    def __init__(self, message: str, envelope: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.envelope = envelope


@dataclass(frozen=True, slots=True)
class TranscriptEvent:
    """One event with its full content."""

    ordinal: int
    type: str
    timestamp: str | None
    content: EventContent


@dataclass(frozen=True, slots=True)
class TranscriptTurn:
    id: str
    ordinal: int
    completed: bool
    started_at: str | None
    events: list[TranscriptEvent]


@dataclass(frozen=True, slots=True)
class Transcript:
    """A session (every turn) or one turn (``kind == "turn"``), with the session it belongs to."""

    kind: str
    session_id: str
    title: str | None
    harness: str
    source: str
    started_at: str | None
    updated_at: str | None
    turns: list[TranscriptTurn]


_Opened = TypeVar("_Opened", OpenSessionData, OpenTurnData, OpenEventData)


async def _open_any(
    call: ToolCall, arguments: dict[str, Any]
) -> OpenSessionData | OpenTurnData | OpenEventData:
    reply = await call("open", arguments)
    if reply.is_error:
        raise ExportError(str(reply.envelope["error"]["message"]), reply.envelope)
    return OpenData.model_validate(reply.envelope["data"]).root


async def _open(call: ToolCall, arguments: dict[str, Any], kind: type[_Opened]) -> _Opened:
    opened = await _open_any(call, arguments)
    if not isinstance(opened, kind):
        raise ExportError(f"open {arguments} answered a {opened.kind}, not what its ID or cursor names")
    return opened


async def _session_turns(call: ToolCall, page: OpenSessionData) -> list[TurnSummary]:
    """Return the turn summaries of ``page`` and of every page its cursors lead to."""
    turns = list(page.turns)
    while page.next_cursor is not None:
        page = await _open(call, {"cursor": page.next_cursor}, OpenSessionData)
        turns.extend(page.turns)
    return turns


async def _turn_events(call: ToolCall, page: OpenTurnData) -> list[EventSummary]:
    """Return the event summaries of ``page`` and of every page its cursors lead to."""
    events = list(page.events)
    while page.next_cursor is not None:
        page = await _open(call, {"cursor": page.next_cursor}, OpenTurnData)
        events.extend(page.events)
    return events


async def _turn(call: ToolCall, opened: OpenTurnData) -> TranscriptTurn:
    events: list[TranscriptEvent] = []
    for event in await _turn_events(call, opened):
        full = await _open(call, {"id": event.id.root}, OpenEventData)
        events.append(TranscriptEvent(event.ordinal, event.type.value, event.timestamp, full.content))
    turn = opened.turn
    return TranscriptTurn(turn.id.root, turn.ordinal, turn.completed, turn.started_at, events)


async def walk_transcript(call: ToolCall, target_id: str, page_size: int) -> Transcript:
    """Return the transcript of the session or turn ``target_id``, read ``page_size`` children per ``open`` page.

    Raises:
        ExportError: a call failed (its error envelope attached), or the ID is an event's.
    """
    found = await _open_any(call, {"id": target_id})
    if isinstance(found, OpenEventData):
        raise ExportError(
            f"{target_id} is an event; export takes a session or turn ID (this event's turn is "
            f"{found.turn.id.root})"
        )
    if isinstance(found, OpenTurnData):
        opened = await _open(call, {"id": found.turn.id.root, "limit": page_size}, OpenTurnData)
        brief = opened.session
        return Transcript(
            "turn",
            brief.id.root,
            brief.title,
            brief.harness,
            brief.source,
            opened.turn.started_at,
            opened.turn.updated_at,
            [await _turn(call, opened)],
        )
    pages = await _open(call, {"id": found.session.id.root, "limit": page_size}, OpenSessionData)
    turns = []
    for summary in await _session_turns(call, pages):
        page = await _open(call, {"id": summary.id.root, "limit": page_size}, OpenTurnData)
        turns.append(await _turn(call, page))
    session = pages.session
    return Transcript(
        "session",
        session.id.root,
        session.title,
        session.harness,
        session.source,
        session.started_at,
        session.updated_at,
        turns,
    )
