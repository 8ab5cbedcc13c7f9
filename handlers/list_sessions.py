"""list_sessions: sessions overlapping [start, end), filtered, sorted and keyset-paginated."""

from __future__ import annotations

from generated.models import (
    ListedSession,
    ListedSessionMetadata,
    ListedSessionOpen,
    ListSessionsData,
    SessionModeModel,
)
from handlers.harness_filter import harness_warnings
from handlers.requests.list_sessions import ParsedListing
from handlers.shapes import as_session_id, session_ref_fields
from moraine.handler_api import Deps, Outcome
from moraine.store.reads.floor import ProjectFloor
from moraine.store.client import Store
from moraine.store.reads.cursors import ListCursor, encode_list_cursor
from moraine.store.reads.labels import display_label
from moraine.store.reads.listing import ListQuery, list_sessions, to_epoch_ms
from moraine.store.reads.sessions import SessionRecord

__all__ = ["handle", "list_data"]


def _listed(rank: int, s: SessionRecord) -> ListedSession:
    sid = as_session_id(s.key)
    return ListedSession(
        rank=rank,
        id=sid,
        session=ListedSessionMetadata(
            **session_ref_fields(s),  # a search hit's session fields, then the listing's own
            display_label=display_label(s),
            turn_count=s.turn_count,
            event_count=s.event_count,
            mode=SessionModeModel(s.mode),
            session_slug=s.slug,
            session_summary=s.summary,
        ),
        open=ListedSessionOpen(session_id=sid),
    )


def list_data(
    store: Store, request: ParsedListing, *, cursor_secret: str | bytes, floor: ProjectFloor | None = None
) -> ListSessionsData:
    """Return the ``data`` object of a list_sessions response (``floor``: a project-only scope)."""
    page = list_sessions(
        store,
        ListQuery(
            request.start,
            request.end,
            request.limit,
            sort=request.sort,
            mode=request.mode,
            harness=request.harness,
            source=request.source,
            after=request.after,
            project_id=None if floor is None else floor.project_id,
        ),
    )
    next_cursor = None
    if page.truncated and page.sessions:
        last = page.sessions[-1]
        assert last.updated_at is not None  # the query only lists sessions with an update time
        next_cursor = encode_list_cursor(
            cursor_secret, ListCursor(request.filter_sig, to_epoch_ms(last.updated_at), last.key)
        )
    return ListSessionsData(
        result_count=len(page.sessions),
        limit=request.limit,
        truncated=page.truncated,
        sessions=[_listed(rank, s) for rank, s in enumerate(page.sessions, start=1)],
        next_cursor=next_cursor,
    )


def handle(request: ParsedListing, deps: Deps) -> Outcome:
    """Answer a parsed list_sessions request."""
    data = list_data(deps.store, request, cursor_secret=deps.settings.cursor_secret, floor=deps.floor)
    return Outcome(data, harness_warnings(request.harness, deps.harnesses))
