"""list_sessions: sessions overlapping [start, end), filtered, sorted and keyset-paginated."""

from __future__ import annotations

from typing import Any

from generated.models import ListSessionsData
from handlers.requests.list_sessions import ParsedListing
from moraine.handler_api import Deps, Outcome
from moraine.ids import session_id
from moraine.scope.floor import ProjectFloor
from moraine.store.client import Store
from moraine.store.reads.cursors import ListCursor, encode_list_cursor
from moraine.store.reads.labels import display_label, session_title
from moraine.store.reads.listing import ListQuery, list_sessions, to_epoch_ms
from moraine.store.reads.sessions import SessionRecord
from moraine.store.reads.timestamps import format_timestamp

__all__ = ["handle", "list_data"]

Json = dict[str, Any]


def _listed(rank: int, s: SessionRecord) -> Json:
    sid = session_id(s.key)
    return {
        "rank": rank,
        "id": sid,
        "session": {
            "id": sid,
            "title": session_title(s.title, s.first_user_message),
            "display_label": display_label(s),
            "source": s.source,
            "harness": s.harness,
            "started_at": format_timestamp(s.started_at),
            "updated_at": format_timestamp(s.updated_at),
            "completed": s.completed,
            "turn_count": s.turn_count,
            "event_count": s.event_count,
            "mode": s.mode,
            "session_slug": s.slug,
            "session_summary": s.summary,
        },
        "open": {"session_id": sid},
    }


def list_data(
    store: Store, request: ParsedListing, *, cursor_secret: str | bytes, floor: ProjectFloor | None = None
) -> Json:
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
    return {
        "result_count": len(page.sessions),
        "limit": request.limit,
        "truncated": page.truncated,
        "sessions": [_listed(rank, s) for rank, s in enumerate(page.sessions, start=1)],
        "next_cursor": next_cursor,
    }


def handle(request: ParsedListing, deps: Deps) -> Outcome:
    """Answer a parsed list_sessions request."""
    data = list_data(deps.store, request, cursor_secret=deps.settings.cursor_secret, floor=deps.floor)
    return Outcome(ListSessionsData.model_validate(data))
