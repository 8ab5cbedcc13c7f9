"""open: expand a session, turn or event ID (or continue an expansion from a signed cursor)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from generated import models  # its ID types (moraine.ids has parsed IDs of the same names)
from generated.models import (
    EventParentTurn,
    EventSummary,
    EventTraversal,
    OpenData,
    OpenEventData,
    OpenRequest,
    OpenSessionData,
    OpenTurnData,
    SessionBrief,
    SessionTraversal,
    TurnSummary,
    TurnTraversal,
)
from moraine.handler_api import Deps, Outcome
from handlers.shapes import (
    as_event_id,
    as_session_id,
    as_turn_id,
    event_content,
    event_summary,
    opened_event,
    opened_session,
    opened_turn,
    session_brief,
    turn_digest,
    turn_summary,
)
from moraine import ids
from moraine.errors import InvalidIdError, NotFoundError, RequestError
from moraine.ids import EventId, SessionId, TurnId, session_id
from moraine.scope.floor import ProjectFloor, in_floor
from moraine.store.client import Store
from moraine.store.reads.cursors import OpenCursor, decode_open_cursor, encode_open_cursor, stale_open_cursor
from moraine.store.reads.events import fetch_event_context, page_events
from moraine.store.reads.native import native_session_key
from moraine.store.reads.neighbours import session_neighbours
from moraine.store.reads.sessions import SessionRecord, fetch_session
from moraine.store.reads.together import together
from moraine.store.reads.turns import TurnRecord, fetch_turn, page_turns

__all__ = ["OpenedData", "handle", "open_data"]

# What open answers: one of the three shapes of ``OpenData`` (the handler wraps it).
OpenedData = OpenSessionData | OpenTurnData | OpenEventData


@dataclass(frozen=True, slots=True)
class _Page:
    """One page of compact children (turn or event summaries) and the cursor to the next page (None on the last)."""

    turns: list[TurnSummary]
    events: list[EventSummary]
    next_cursor: str | None


_Id = TypeVar("_Id", models.SessionId, models.TurnId, models.EventId)


def _maybe(make: Callable[[int, int], _Id], key: int, value: int | None) -> _Id | None:
    return None if value is None else make(key, value)


def _session_data(
    store: Store, session: SessionRecord, read_page: Callable[[], _Page] | None
) -> OpenSessionData:
    """Build a session's data; its neighbours are read beside ``read_page`` (both need only the session row)."""
    last = session.turn_count or None
    first = 1 if last else None
    if read_page is None:
        neighbours, page = session_neighbours(store, session), None
    else:
        neighbours, page = together(partial(session_neighbours, store, session), read_page)
    return OpenSessionData(
        kind="session",
        session=opened_session(session),
        turns=page.turns if page else [],
        next_cursor=page.next_cursor if page else None,
        traversal=SessionTraversal(
            previous_session_id=_maybe_session(neighbours.previous),
            next_session_id=_maybe_session(neighbours.following),
            first_turn_id=_maybe(as_turn_id, session.key, first),
            last_turn_id=_maybe(as_turn_id, session.key, last),
        ),
    )


def _maybe_session(key: int | None) -> models.SessionId | None:
    return None if key is None else as_session_id(key)


def _turn_neighbours(turn_seq: int, turn_count: int) -> tuple[int | None, int | None]:
    """Turns are numbered 1..turn_count, so a turn's neighbours follow from its number."""
    previous = turn_seq - 1 if turn_seq > 1 else None
    following = turn_seq + 1 if turn_seq < turn_count else None
    return previous, following


def _turn_data(turn: TurnRecord, session: SessionRecord, page: _Page | None) -> OpenTurnData:
    previous, following = _turn_neighbours(turn.turn_seq, session.turn_count)
    return OpenTurnData(
        kind="turn",
        turn=opened_turn(turn),
        session=session_brief(session),
        summary=turn_digest(turn),
        events=page.events if page else [],
        next_cursor=page.next_cursor if page else None,
        traversal=TurnTraversal(
            session_id=as_session_id(turn.key),
            previous_turn_id=_maybe(as_turn_id, turn.key, previous),
            next_turn_id=_maybe(as_turn_id, turn.key, following),
            first_event_id=as_event_id(turn.key, turn.first_seq) if turn.event_count else None,
            last_event_id=as_event_id(turn.key, turn.last_seq) if turn.event_count else None,
        ),
    )


def _page(store: Store, cursor: OpenCursor, secret: str | bytes) -> _Page:
    """Read one page after the cursor's anchor, within its snapshot, and mint the next cursor."""
    summaries: list[TurnSummary] = []
    events: list[EventSummary] = []
    if cursor.kind == "session":
        turn_rows = page_turns(store, cursor.key, cursor.after, cursor.upto, cursor.limit + 1)
        more = len(turn_rows) > cursor.limit
        turn_rows = turn_rows[: cursor.limit]
        summaries = [turn_summary(t) for t in turn_rows]
        anchor = turn_rows[-1].turn_seq if turn_rows else cursor.after
    else:
        event_rows = page_events(
            store, cursor.key, cursor.turn_seq, cursor.after, cursor.upto, cursor.limit + 1
        )
        more = len(event_rows) > cursor.limit
        event_rows = event_rows[: cursor.limit]
        events = [event_summary(e) for e in event_rows]
        anchor = event_rows[-1].seq if event_rows else cursor.after
    next_cursor = None
    if more:
        next_cursor = encode_open_cursor(
            secret,
            OpenCursor(
                cursor.kind, cursor.key, cursor.turn_seq, cursor.limit, anchor, cursor.upto, cursor.generation
            ),
        )
    return _Page(summaries, events, next_cursor)


def _check_limit(limit: int, max_results: int) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= max_results:
        raise RequestError(f"limit must be an integer from 1 to {max_results}", field="limit")


def _open_session(
    store: Store,
    parsed: SessionId,
    text: str,
    limit: int | None,
    secret: str | bytes,
    floor: ProjectFloor | None,
) -> OpenSessionData:
    session = fetch_session(store, parsed.key) if in_floor(store, floor, parsed.key) else None
    if session is None:
        raise NotFoundError("session not found", kind="session", id=text)
    read_page = None
    if limit is not None:
        # The snapshot is the session's turn count, so the page is read after the session row, never beside it.
        start = OpenCursor("session", session.key, 0, limit, 0, session.turn_count, session.generation)
        read_page = partial(_page, store, start, secret)
    return _session_data(store, session, read_page)


def _open_turn(
    store: Store,
    parsed: TurnId,
    text: str,
    limit: int | None,
    secret: str | bytes,
    floor: ProjectFloor | None,
) -> OpenTurnData:
    turn, session = (
        together(
            partial(fetch_turn, store, parsed.key, parsed.turn_seq), partial(fetch_session, store, parsed.key)
        )
        if in_floor(store, floor, parsed.key)
        else (None, None)
    )
    if turn is None or session is None:
        raise NotFoundError("turn not found", kind="turn", id=text)
    page = None
    if limit is not None:
        start = OpenCursor(
            "turn", turn.key, turn.turn_seq, limit, turn.first_seq - 1, turn.last_seq, session.generation
        )
        page = _page(store, start, secret)
    return _turn_data(turn, session, page)


def _open_event(store: Store, parsed: EventId, text: str, floor: ProjectFloor | None) -> OpenEventData:
    found = fetch_event_context(store, parsed.key, parsed.seq) if in_floor(store, floor, parsed.key) else None
    if found is None:
        raise NotFoundError("event not found", kind="event", id=text)
    event = found.event
    # A turn's events are the contiguous run first_seq..last_seq of its session's sequence.
    previous = event.seq - 1 if event.seq > found.turn_first_seq else None
    following = event.seq + 1 if event.seq < found.turn_last_seq else None
    previous_turn, next_turn = _turn_neighbours(event.turn_seq, found.session_turn_count)
    tid = as_turn_id(event.key, event.turn_seq)
    sid = as_session_id(event.key)
    return OpenEventData(
        kind="event",
        event=opened_event(event),
        content=event_content(event),
        session=SessionBrief(
            id=sid, title=found.session_title, source=found.session_source, harness=found.session_harness
        ),
        turn=EventParentTurn(id=tid, ordinal=event.turn_seq, completed=found.turn_completed),
        traversal=EventTraversal(
            session_id=sid,
            turn_id=tid,
            previous_event_id=_maybe(as_event_id, event.key, previous),
            next_event_id=_maybe(as_event_id, event.key, following),
            previous_turn_id=_maybe(as_turn_id, event.key, previous_turn),
            next_turn_id=_maybe(as_turn_id, event.key, next_turn),
        ),
    )


def _continue(store: Store, token: str, secret: str | bytes, floor: ProjectFloor | None) -> OpenedData:
    cursor = decode_open_cursor(secret, token)
    if not in_floor(store, floor, cursor.key):  # a cursor minted for another client of the daemon
        raise NotFoundError("session not found", kind="session", id=session_id(cursor.key))
    if cursor.kind == "session":
        session = fetch_session(store, cursor.key)
        if session is None or session.generation != cursor.generation:
            raise stale_open_cursor()
        return _session_data(store, session, partial(_page, store, cursor, secret))
    # The cursor holds the page's bounds, so the page is read beside the rows that validate it.
    session, turn, page = together(
        partial(fetch_session, store, cursor.key),
        partial(fetch_turn, store, cursor.key, cursor.turn_seq),
        partial(_page, store, cursor, secret),
    )
    if session is None or session.generation != cursor.generation or turn is None:
        raise stale_open_cursor()
    return _turn_data(turn, session, page)


def open_data(
    store: Store,
    *,
    id: str | None,
    limit: int | None,
    cursor: str | None,
    max_results: int,
    cursor_secret: str | bytes,
    floor: ProjectFloor | None = None,
) -> OpenedData:
    """Return the ``data`` object of an open response (``floor``: a project-only scope; outside it is not_found).

    Raises:
        RequestError: bad argument combination, limit out of range, or a malformed/altered/stale cursor.
        InvalidIdError: a malformed ID (and not a stored session's harness ID either).
        NotFoundError: a well-formed ID that is not stored.
    """
    if cursor is not None:
        if id is not None or limit is not None:
            raise RequestError("cursor must be passed alone, without id or limit", field="cursor")
        return _continue(store, cursor, cursor_secret, floor)
    if id is None or not id.strip():
        raise RequestError("open needs an id (or a cursor from a previous open)", field="id")
    try:
        parsed = ids.parse_id(id)
    except ids.InvalidIdError as exc:
        native = native_session_key(store, id, floor)  # a harness's own session ID opens that session
        if native is None:
            message = "id is neither a Moraine ID nor the ID of a stored session in its harness"
            raise InvalidIdError(message if ids.could_be_native_id(id) else str(exc), field="id") from None
        parsed, id = SessionId(native), session_id(native)
    if isinstance(parsed, EventId):
        if limit is not None:
            raise RequestError(
                "limit is only valid with a session or turn id, not an event id", field="limit"
            )
        return _open_event(store, parsed, id, floor)
    if limit is not None:
        _check_limit(limit, max_results)
    if isinstance(parsed, SessionId):
        return _open_session(store, parsed, id, limit, cursor_secret, floor)
    return _open_turn(store, parsed, id, limit, cursor_secret, floor)


def handle(request: OpenRequest, deps: Deps) -> Outcome:
    """Answer a canonical open request."""
    data = open_data(
        deps.store,
        id=request.id,
        limit=request.limit,
        cursor=request.cursor,
        max_results=deps.settings.max_results,
        cursor_secret=deps.settings.cursor_secret,
        floor=deps.floor,
    )
    return Outcome(OpenData(data))
