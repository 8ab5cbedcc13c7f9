"""list_sessions: sessions overlapping [start, end), filtered, sorted and keyset-paginated."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Literal

from generated.models import (
    ListedSession,
    ListedSessionMetadata,
    ListedSessionOpen,
    ListSessionsData,
    ListSessionsRequest,
    SessionModeModel,
)
from handlers.shapes import as_session_id, session_ref_fields
from moraine.handler_api import Deps, Outcome
from moraine.errors import RequestError
from moraine.scope.floor import ProjectFloor
from moraine.store.client import Store
from moraine.store.reads.cursors import ListCursor, decode_list_cursor, encode_list_cursor
from moraine.store.reads.labels import display_label
from moraine.store.reads.listing import ListAnchor, ListQuery, list_sessions, to_epoch_ms
from moraine.store.reads.sessions import SessionRecord
from moraine.store.reads.timestamps import parse_timestamp

__all__ = ["handle", "list_data"]


def _when(value: str | datetime, field: str) -> datetime:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise RequestError(f"{field} must carry a timezone offset or Z", field=field)
        return value
    try:
        return parse_timestamp(value)
    except ValueError:
        raise RequestError(
            f"{field} must be an RFC 3339 datetime with a timezone offset or Z", field=field
        ) from None


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
    store: Store,
    *,
    start_datetime: str | datetime,
    end_datetime: str | datetime,
    limit: int,
    cursor: str | None,
    mode: str | None,
    harness: str | None,
    source: str | None,
    sort: Literal["asc", "desc"],
    cursor_secret: str | bytes,
    floor: ProjectFloor | None = None,
) -> ListSessionsData:
    """Return the ``data`` object of a list_sessions response (``floor``: a project-only scope).

    Raises:
        RequestError: bad datetimes or range, or a cursor that is malformed, altered or from another filter/sort.
    """
    start = _when(start_datetime, "start_datetime")
    end = _when(end_datetime, "end_datetime")
    if end <= start:
        raise RequestError("end_datetime must be later than start_datetime", field="end_datetime")
    signature = json.dumps([to_epoch_ms(start), to_epoch_ms(end), mode, harness, source, sort])
    after = None
    if cursor is not None:
        decoded = decode_list_cursor(cursor_secret, cursor, signature)
        after = ListAnchor(decoded.updated_ms, decoded.key)
    page = list_sessions(
        store,
        ListQuery(
            start,
            end,
            limit,
            sort=sort,
            mode=mode,
            harness=harness,
            source=source,
            after=after,
            project_id=None if floor is None else floor.project_id,
        ),
    )
    next_cursor = None
    if page.truncated and page.sessions:
        last = page.sessions[-1]
        assert last.updated_at is not None  # the query only lists sessions with an update time
        next_cursor = encode_list_cursor(
            cursor_secret, ListCursor(signature, to_epoch_ms(last.updated_at), last.key)
        )
    return ListSessionsData(
        result_count=len(page.sessions),
        limit=limit,
        truncated=page.truncated,
        sessions=[_listed(rank, s) for rank, s in enumerate(page.sessions, start=1)],
        next_cursor=next_cursor,
    )


def handle(request: ListSessionsRequest, deps: Deps) -> Outcome:
    """Answer a canonical list_sessions request."""
    data = list_data(
        deps.store,
        start_datetime=request.start_datetime,
        end_datetime=request.end_datetime,
        limit=request.limit,
        cursor=request.cursor,
        mode=None if request.mode is None else str(request.mode.value),
        harness=request.harness,
        source=request.source,
        sort="asc" if request.sort.value == "asc" else "desc",
        cursor_secret=deps.settings.cursor_secret,
        floor=deps.floor,
    )
    return Outcome(data)
