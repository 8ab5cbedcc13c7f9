"""Read event rows (``events``, append-only, always filtered by session key and sequence)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from moraine.store.client import Store
from moraine.store.reads.labels import session_title
from moraine.store.reads.settled import TURN_COMPLETED, TURN_TERMINAL, event_terminal
from moraine.store.reads.together import query_together

__all__ = [
    "HEAD_COLUMNS",
    "head_columns",
    "EventDetail",
    "EventHead",
    "EventSummary",
    "event_head",
    "event_types",
    "EventContext",
    "fetch_event_context",
    "page_events",
]

_SUMMARY_COLUMNS = (
    "session_key, seq, turn_seq, ordinal, type, timestamp, terminal, tool_name, model, summary, "
    "summary_truncated, encrypted"
)
_DETAIL_COLUMNS = (
    "session_key, seq, turn_seq, ordinal, type, timestamp, terminal, tool_name, model, originating_model, "
    "content_format, text, arguments, exit_code, tool_error, encrypted"
)


def head_columns(text: str = "text", arguments: str = "arguments") -> str:
    """The columns ``event_head`` reads, with ``text`` and ``arguments`` as these expressions (a read that needs
    them only for some rows selects them conditionally)."""
    return f"session_key, seq, turn_seq, ordinal, type, timestamp, terminal, {text}, {arguments}, encrypted"


HEAD_COLUMNS = head_columns()


@dataclass(frozen=True, slots=True)
class EventSummary:
    """The compact view of an event used in turn pages."""

    key: int
    seq: int
    turn_seq: int
    ordinal: int
    type: str
    timestamp: datetime | None
    terminal: bool
    tool_name: str | None
    model: str | None
    summary: str
    summary_truncated: bool
    encrypted: bool


@dataclass(frozen=True, slots=True)
class EventDetail:
    """Everything ``open(event)`` shows about one event."""

    key: int
    seq: int
    turn_seq: int
    ordinal: int
    type: str
    timestamp: datetime | None
    terminal: bool
    tool_name: str | None
    model: str | None
    originating_model: str | None
    content_format: str
    text: str
    arguments: str | None
    exit_code: int | None
    tool_error: bool | None
    encrypted: bool


@dataclass(frozen=True, slots=True)
class EventHead:
    """What a search hit needs about its event: position, type, time and the text to cut a snippet from."""

    key: int
    seq: int
    turn_seq: int
    ordinal: int
    type: str
    timestamp: datetime | None
    terminal: bool
    text: str
    arguments: str | None
    encrypted: bool


def _detail(r: tuple[Any, ...]) -> EventDetail:
    return EventDetail(
        key=int(r[0]),
        seq=int(r[1]),
        turn_seq=int(r[2]),
        ordinal=int(r[3]),
        type=r[4],
        timestamp=r[5],
        terminal=bool(r[6]),
        tool_name=r[7],
        model=r[8],
        originating_model=r[9],
        content_format=r[10],
        text=r[11],
        arguments=r[12],
        exit_code=None if r[13] is None else int(r[13]),
        tool_error=None if r[14] is None else bool(r[14]),
        encrypted=bool(r[15]),
    )


def event_head(r: tuple[Any, ...]) -> EventHead:
    """Build a search hit's event from a row selected with ``HEAD_COLUMNS``."""
    return EventHead(
        key=int(r[0]),
        seq=int(r[1]),
        turn_seq=int(r[2]),
        ordinal=int(r[3]),
        type=r[4],
        timestamp=r[5],
        terminal=bool(r[6]),
        text=r[7],
        arguments=r[8],
        encrypted=bool(r[9]),
    )


def page_events(
    store: Store, key: int, turn_seq: int, after_seq: int, upto_seq: int, limit: int
) -> list[EventSummary]:
    """Return at most ``limit`` events of one turn with ``after_seq < seq <= upto_seq``, in order."""
    # The turn's terminal event may be one a rule chose (moraine.store.reads.settled), not one recorded terminal.
    terminal_seq = (
        f"(SELECT {TURN_TERMINAL} FROM {store.table('turns')} FINAL "
        "WHERE session_key = {key:UInt64} AND turn_seq = {turn:UInt32})"
    )
    columns = _SUMMARY_COLUMNS.replace(" terminal,", f" (terminal OR seq = ifNull({terminal_seq}, 0)),")
    rows = store.query(
        f"SELECT {columns} FROM {store.table('events')} "
        "WHERE session_key = {key:UInt64} AND seq > {after:UInt32} AND seq <= {upto:UInt32} "
        "AND turn_seq = {turn:UInt32} ORDER BY seq LIMIT {limit:UInt32}",
        {"key": key, "after": after_seq, "upto": upto_seq, "turn": turn_seq, "limit": limit},
    )
    return [
        EventSummary(
            key=int(r[0]),
            seq=int(r[1]),
            turn_seq=int(r[2]),
            ordinal=int(r[3]),
            type=r[4],
            timestamp=r[5],
            terminal=bool(r[6]),
            tool_name=r[7],
            model=r[8],
            summary=r[9],
            summary_truncated=bool(r[10]),
            encrypted=bool(r[11]),
        )
        for r in rows
    ]


@dataclass(frozen=True, slots=True)
class EventContext:
    """``open(event)``'s reads: the event, its turn's bounds and its session's brief."""

    event: EventDetail
    turn_first_seq: int
    turn_last_seq: int
    turn_completed: bool
    session_title: str | None
    session_source: str
    session_harness: str
    session_turn_count: int


def fetch_event_context(store: Store, key: int, seq: int) -> EventContext | None:
    """Return one event with its turn's bounds and its session's brief (three lookups at once), or ``None``."""
    event_rows, turn_rows, session_rows = query_together(
        store,
        {"key": key, "seq": seq},
        f"SELECT {_DETAIL_COLUMNS} FROM {store.table('events')} "
        "WHERE session_key = {key:UInt64} AND seq = {seq:UInt32} LIMIT 1",
        # A turn's events are the contiguous seq range [first_seq, last_seq]: no second read of events.
        f"SELECT first_seq, last_seq, {TURN_COMPLETED}, {TURN_TERMINAL} FROM {store.table('turns')} FINAL "
        "WHERE session_key = {key:UInt64} AND {seq:UInt32} BETWEEN first_seq AND last_seq",
        f"SELECT title, first_user_message, source, harness, turn_count FROM {store.table('sessions')} FINAL "
        "WHERE session_key = {key:UInt64}",
    )
    if not event_rows or not turn_rows or not session_rows:
        return None
    first, last, completed, terminal_seq = turn_rows[0]
    title, first_user_message, source, harness, turn_count = session_rows[0]
    event = _detail(event_rows[0])
    return EventContext(
        event=replace(event, terminal=event_terminal(event.terminal, event.seq, terminal_seq)),
        turn_first_seq=int(first),
        turn_last_seq=int(last),
        turn_completed=bool(completed),
        session_title=session_title(title, first_user_message),
        session_source=source,
        session_harness=harness,
        session_turn_count=int(turn_count),
    )


def event_types(store: Store, refs: Sequence[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """Return the type of each (session key, seq) event that exists."""
    if not refs:
        return {}
    rows = store.query(
        f"SELECT session_key, seq, type FROM {store.table('events')} "
        "WHERE (session_key, seq) IN (SELECT arrayJoin(arrayZip({keys:Array(UInt64)}, {seqs:Array(UInt32)})))",
        {"keys": [r[0] for r in refs], "seqs": [r[1] for r in refs]},
    )
    return {(int(k), int(s)): str(t) for k, s, t in rows}
