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
    OpenSessionData,
    OpenTurnData,
    SessionBrief,
    SessionTraversal,
    TurnSummary,
    TurnTraversal,
)
from handlers.requests.open import Continuation, NativeSessionId, ParsedOpen
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
from moraine.errors import InvalidIdError, NotFoundError
from moraine.ids import EventId, SessionId, TurnId, session_id
from moraine.store.reads.floor import ProjectFloor, in_floor
from moraine.store.client import Store
from moraine.store.reads.cursors import OpenCursor, encode_open_cursor, stale_open_cursor
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


def _open_session(
    store: Store, target: SessionId | OpenCursor, limit: int | None, secret: str | bytes
) -> OpenSessionData:
    """Open a session by ID (its first ``limit`` turns, if given) or continue its expansion from a cursor."""
    session = fetch_session(store, target.key)
    if isinstance(target, OpenCursor):
        if session is None or session.generation != target.generation:
            raise stale_open_cursor()
        cursor: OpenCursor | None = target
    elif session is None:
        raise _not_found(target)
    else:
        # The snapshot is the session's turn count, so the first page is read after the session row.
        cursor = (
            None
            if limit is None
            else OpenCursor("session", target.key, 0, limit, 0, session.turn_count, session.generation)
        )
    return _session_data(store, session, None if cursor is None else partial(_page, store, cursor, secret))


def _open_turn(
    store: Store, target: TurnId | OpenCursor, limit: int | None, secret: str | bytes
) -> OpenTurnData:
    """Open a turn by ID (its first ``limit`` events, if given) or continue its expansion from a cursor."""
    if isinstance(target, OpenCursor):
        # The cursor holds the page's bounds, so the page is read beside the rows that validate it.
        turn, session, page = together(
            partial(fetch_turn, store, target.key, target.turn_seq),
            partial(fetch_session, store, target.key),
            partial(_page, store, target, secret),
        )
        if session is None or session.generation != target.generation or turn is None:
            raise stale_open_cursor()
        return _turn_data(turn, session, page)
    turn, session = together(
        partial(fetch_turn, store, target.key, target.turn_seq), partial(fetch_session, store, target.key)
    )
    if turn is None or session is None:
        raise _not_found(target)
    page = None
    if limit is not None:
        start = OpenCursor(
            "turn", turn.key, turn.turn_seq, limit, turn.first_seq - 1, turn.last_seq, session.generation
        )
        page = _page(store, start, secret)
    return _turn_data(turn, session, page)


def _open_event(store: Store, parsed: EventId) -> OpenEventData:
    found = fetch_event_context(store, parsed.key, parsed.seq)
    if found is None:
        raise _not_found(parsed)
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


def open_data(
    store: Store,
    request: ParsedOpen,
    *,
    cursor_secret: str | bytes,
    floor: ProjectFloor | None = None,
) -> OpenedData:
    """Return the ``data`` object of an open response (``floor``: a project-only scope; outside it is not_found).

    Raises:
        RequestError: a cursor whose session was re-indexed since its first page (stale).
        InvalidIdError: an id that could only be a harness's own session ID, and no stored session has it.
        NotFoundError: a well-formed ID that is not stored.
    """
    target = request.target
    if isinstance(target, NativeSessionId):  # a harness's own session ID opens that session
        native = native_session_key(store, target.text, floor)
        if native is None:
            message = "id is neither a Moraine ID nor the ID of a stored session in its harness"
            raise InvalidIdError(message, field="id")
        target = SessionId(native)
    # The floor is checked once, here: outside it (a cursor minted for another client of the daemon included),
    # every ID is not_found.
    if not in_floor(store, floor, target.cursor.key if isinstance(target, Continuation) else target.key):
        raise _not_found(target)
    if isinstance(target, EventId):
        return _open_event(store, target)
    if isinstance(target, Continuation):
        cursor = target.cursor
        if cursor.kind == "session":
            return _open_session(store, cursor, None, cursor_secret)
        return _open_turn(store, cursor, None, cursor_secret)
    if isinstance(target, SessionId):
        return _open_session(store, target, request.limit, cursor_secret)
    return _open_turn(store, target, request.limit, cursor_secret)


def _not_found(target: SessionId | TurnId | EventId | Continuation) -> NotFoundError:
    """The error for an ID that is not stored or is outside the floor (a cursor names its session)."""
    if isinstance(target, Continuation):
        return NotFoundError("session not found", kind="session", id=session_id(target.cursor.key))
    kind = "event" if isinstance(target, EventId) else "turn" if isinstance(target, TurnId) else "session"
    return NotFoundError(f"{kind} not found", kind=kind, id=str(target))


def handle(request: ParsedOpen, deps: Deps) -> Outcome:
    """Answer a parsed open request."""
    data = open_data(deps.store, request, cursor_secret=deps.settings.cursor_secret, floor=deps.floor)
    return Outcome(OpenData(data))
