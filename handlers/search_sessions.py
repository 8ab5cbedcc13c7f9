"""search_sessions: BM25 over the postings, scoped and filtered, with hits that are handles to open."""

from __future__ import annotations

from generated.models import (
    EventType,
    SearchHit,
    SearchHitEvent,
    SearchHitOpen,
    SearchHitTurn,
    SearchSessionsData,
    Snippet,
)
from handlers.harness_filter import harness_warnings
from handlers.requests.search_sessions import ParsedSearch
from handlers.shapes import as_event_id, as_session_id, as_turn_id, session_ref
from moraine.errors import NotFoundError
from moraine.handler_api import Deps, Outcome
from moraine.ids import SessionId, TurnId, session_id
from moraine.store.reads.floor import ProjectFloor
from moraine.terms.marks import MEANING_MATCH, meaning_note
from moraine.semantic.hybrid import Hybrid, fuser_for
from moraine.store.client import Store
from moraine.store.reads.native import first_events, native_session_key
from moraine.store.reads.exists import scope_exists
from moraine.store.reads.scored import Scored
from moraine.store.reads.search import Bm25, SearchPage, SearchQuery, hydrate_page, search
from moraine.store.reads.settled import event_terminal
from moraine.store.reads.timestamps import format_timestamp

__all__ = ["handle", "search_data"]


def _scope(
    store: Store, within: SessionId | TurnId | None, floor: ProjectFloor | None
) -> tuple[int | None, int | None]:
    """Return the (session key, turn number) the search is scoped to, or (None, None) for everywhere."""
    if within is None:
        return None, None
    turn_seq = within.turn_seq if isinstance(within, TurnId) else None
    if not scope_exists(store, within.key, turn_seq, floor.project_id if floor else None):
        kind = "session" if turn_seq is None else "turn"
        raise NotFoundError(f"{kind} not found", kind=kind, id=str(within))
    return within.key, turn_seq


def search_data(
    store: Store,
    request: ParsedSearch,
    *,
    bm25: Bm25,
    snippet_chars: int,
    floor: ProjectFloor | None = None,
    notes: list[str] | None = None,
    hybrid: Hybrid | None = None,
) -> SearchSessionsData:
    """Return the ``data`` object of a search_sessions response (``floor``: a project-only scope; ``hybrid``: the
    hybrid ranker, None for lexical ranking).

    A query that is exactly a harness's own session ID (what ``claude --resume`` or ``codex resume`` takes) returns
    that session's first events of the requested types, and a note for the response's warnings is added to
    ``notes``.

    Raises:
        NotFoundError: within_id is a session or turn ID that is not in the store (or outside ``floor``).
    """
    key, turn_seq = _scope(store, request.within, floor)
    if key is None:
        native = _native_search(store, request, snippet_chars, floor)
        if native is not None:
            data, note = native
            if notes is not None:
                notes.append(note)
            return data
    fuser = fuser_for(hybrid, request.query, request.event_types)  # semantic recall; None: lexical only
    search_query = SearchQuery.from_query(
        request.query,
        request.event_types,
        request.n_hits,
        harness=request.harness,
        source=request.source,
        session_key=key,
        turn_seq=turn_seq,
        floor=floor,
    )
    page = search(store, search_query, bm25, snippet_chars, fuse=fuser)
    meaning = set(fuser.meaning_only) if fuser is not None else set()
    ranks = [rank for rank, hit in enumerate(page.hits, start=1) if (hit.event.key, hit.event.seq) in meaning]
    if ranks and notes is not None:
        notes.append(meaning_note(ranks))
    return _data(page, request.n_hits, meaning)


def _native_search(
    store: Store, request: ParsedSearch, snippet_chars: int, floor: ProjectFloor | None
) -> tuple[SearchSessionsData, str] | None:
    """Answer a query that is exactly a harness's own session ID with that session's first events, and a note
    naming the session (None when no stored session has that ID).

    Only a query that could be such an ID is looked up (``ParsedQuery.maybe_native_id``), so a one-word query
    never pays for the lookup.
    """
    if not request.query.maybe_native_id:
        return None
    key = native_session_key(store, request.query.text, floor, request.harness, request.source)
    if key is None:
        return None
    seqs = first_events(store, key, request.event_types, request.n_hits + 1)
    page = hydrate_page(store, [Scored(key, seq, 1.0) for seq in seqs], request.n_hits, [], snippet_chars)
    note = (
        f"the query is the harness's own ID of session {session_id(key)}: the hits are that session's first "
        "events; open that ID (or this one) to walk it"
    )
    return _data(page, request.n_hits), note


def _data(page: SearchPage, n_hits: int, meaning: set[tuple[int, int]] | None = None) -> SearchSessionsData:
    """Shape the page; a hit in ``meaning`` (found by meaning alone) gets the marker ahead of its snippet."""
    results = []
    for rank, hit in enumerate(page.hits, start=1):
        mark = MEANING_MATCH if meaning and (hit.event.key, hit.event.seq) in meaning else ""
        eid = as_event_id(hit.event.key, hit.event.seq)
        tid = as_turn_id(hit.turn.key, hit.turn.turn_seq)
        results.append(
            SearchHit(
                rank=rank,
                score=hit.score,
                id=eid,
                event=SearchHitEvent(
                    id=eid,
                    type=EventType(hit.event.type),
                    timestamp=format_timestamp(hit.event.timestamp),
                    ordinal=hit.event.ordinal,
                    terminal=event_terminal(hit.event.terminal, hit.event.seq, hit.turn.terminal_seq),
                ),
                turn=SearchHitTurn(
                    id=tid,
                    ordinal=hit.turn.turn_seq,
                    completed=hit.turn.completed,
                    event_count=hit.turn.event_count,
                ),
                session=session_ref(hit.session),
                snippet=Snippet(text=mark + hit.snippet.text, truncated=hit.snippet.truncated),
                open=SearchHitOpen(event_id=eid, turn_id=tid, session_id=as_session_id(hit.session.key)),
            )
        )
    return SearchSessionsData(
        result_count=len(results), limit=n_hits, truncated=page.truncated, results=results
    )


def handle(request: ParsedSearch, deps: Deps) -> Outcome:
    """Answer a parsed search_sessions request."""
    settings = deps.settings
    notes = harness_warnings(request.harness, deps.harnesses)
    data = search_data(
        deps.store,
        request,
        bm25=Bm25(settings.bm25_k1, settings.bm25_b),
        snippet_chars=settings.snippet_chars,
        floor=deps.floor,
        notes=notes,
        hybrid=deps.semantic.current,
    )
    return Outcome(data, notes)
