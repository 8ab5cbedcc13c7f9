"""BM25 search over the ingest-time postings, then hydration of the top hits (events, turns, sessions).

Every read is a key-range lookup: postings by term (plus session key / turn when scoped), document statistics by
type, and the hits' events, turns and sessions by their keys. The score of a document is the BM25 sum over the
matched query terms, ``idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * doc_len / avgdl))`` with
``idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))``; ``N`` and ``avgdl`` come from ``doc_stats`` for the selected
event types (kept until the next write to an embedded store), ``df`` from the postings of those types (not
counted for a one-term query, whose normalized scores do not depend on idf).

Evidence per session: the best ``session_depth`` events by that score are re-ranked with their session's own BM25
score, the session taken as one document (the summed term frequencies of its events of the selected types, its
length their summed lengths, the same idf, the average length over those candidate sessions). An event's score is
``own / best own + session_weight * session / best session``: a short session where the query's words meet beats a
marathon that mentions each of them once in passing, and a session whose evidence is spread over several messages
counts it all. Within one session (a session- or turn-scoped search) it changes nothing, so it is skipped there.

Word forms: the query's other English forms (``SearchQuery.forms``, see ``moraine.terms.forms``) are ranked as
further terms whose idf is scaled by ``form_weight``, so "hiking" finds "hiked" below an event that says "hiking". A
form found in more than ``form_max_share`` of the events (and more than 1,000) is left out: its postings cost the
most and its idf tells least.

Function words: ``SearchQuery.terms`` come without them (``moraine.terms.query``); when those find nothing and no
fusion runs, the search is ranked by ``every_term`` instead, the query's words with its function words.

Dates: a calendar date the query names (``SearchQuery.period``, see ``moraine.terms.timecue``) multiplies the
scores of the candidates from that date by ``1 + time_weight``, after any fusion.

Then, event by event (``moraine.store.reads.replies``, ``moraine.store.reads.saidwhen``): a candidate that asks
about the query hands its place to its reply (``replies_first``), and a query that asks when lifts the candidates
that say when (``when_weight``).
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, replace
from typing import Any, NamedTuple, Protocol

from moraine.ranking import (
    BM25_B,
    BM25_K1,
    FORM_MAX_SHARE,
    FORM_WEIGHT,
    REPLIES_FIRST,
    SESSION_DEPTH,
    SESSION_WEIGHT,
    TIME_WEIGHT,
    TOOL_B,
    TOOL_FORM_WEIGHT,
    TOOL_TYPES,
    WHEN_WEIGHT,
)
from moraine.placeholders import ENCRYPTED_REASONING_PLACEHOLDER
from moraine.store.reads.floor import ProjectFloor, project_condition
from moraine.terms.query import ParsedQuery
from moraine.terms.timecue import Period
from moraine.store.client import Store
from moraine.store.reads.events import HEAD_COLUMNS, EventHead, event_head, head_columns
from moraine.store.reads.scored import Dated, Scored
from moraine.store.reads.sessions import SESSION_COLUMNS, SessionRecord, session_from_row
from moraine.store.reads.snippets import Snippet, make_snippet
from moraine.store.reads.replies import (
    ASKS,
    find_replies,
    lift_replies,
    replies_first,
    window_condition,
    window_parameters,
)
from moraine.store.reads.saidwhen import said_when_lifted
from moraine.store.reads.together import query_together
from moraine.store.reads.turns import TURN_HEAD_COLUMNS, TurnHead, turn_head

__all__ = ["Bm25", "Fuse", "SearchHit", "SearchPage", "SearchQuery", "hydrate_page", "search"]

_SCORE_DIGITS = 9  # rounding makes equal-scoring documents tie exactly, whatever the summation order


class Fuse(Protocol):
    """Semantic recall (moraine/semantic): re-ranks the BM25 candidates, taken ``depth`` deep."""

    depth: int

    def prefetch(self, store: Store, query: SearchQuery) -> None:
        """Start the vector side, so that it runs while BM25 does."""

    def __call__(self, store: Store, query: SearchQuery, lexical: list[Scored]) -> list[Scored]:
        """Return up to ``query.limit + 1`` rows in the contract's order."""
        ...


@dataclass(frozen=True, slots=True)
class Bm25:
    k1: float = BM25_K1
    b: float = BM25_B
    session_weight: float = SESSION_WEIGHT  # 0: events ranked alone
    session_depth: int = SESSION_DEPTH  # events re-ranked with their session's score
    form_weight: float = FORM_WEIGHT  # a query word's other forms, relative to the word itself (0: off)
    form_max_share: float = FORM_MAX_SHARE  # a form in more of the events than this is left out
    time_weight: float = TIME_WEIGHT  # events in the period the query names score 1 + time_weight times more
    replies_first: bool = REPLIES_FIRST  # a candidate asking about the query hands its place to its reply
    when_weight: float = WHEN_WEIGHT  # a query asking when lifts the candidates that say when (0: off)
    tool_b: float = TOOL_B  # b of tool calls and outputs
    tool_form_weight: float = TOOL_FORM_WEIGHT  # form weight of tool calls and outputs


@dataclass(frozen=True, slots=True)
class SearchQuery:
    """A validated search: distinct query terms, canonical event types, exact filters and an optional scope."""

    terms: tuple[str, ...]
    types: tuple[str, ...]
    limit: int
    harness: str | None = None
    source: str | None = None
    session_key: int | None = None
    turn_seq: int | None = None  # only with session_key
    floor: ProjectFloor | None = None  # a project-only server's scope
    forms: tuple[str, ...] = ()  # other forms of the terms, ranked at Bm25.form_weight
    period: Period | None = None  # the date the query names, lifted at Bm25.time_weight
    # The query's terms with its function words: ranked instead when ``terms`` find nothing (lexical ranking only).
    every_term: tuple[str, ...] = ()
    asks_when: bool = False  # the query asks when: candidates that say when are lifted at Bm25.when_weight

    @classmethod
    def from_query(
        cls,
        query: ParsedQuery,
        types: tuple[str, ...],
        limit: int,
        *,
        harness: str | None = None,
        source: str | None = None,
        session_key: int | None = None,
        turn_seq: int | None = None,
        floor: ProjectFloor | None = None,
    ) -> SearchQuery:
        """Return the search of a parsed query (its terms, forms, every term and date) with these filters."""
        return cls(
            query.terms, types, limit, harness, source, session_key, turn_seq, floor,  # the fields in order
            forms=query.forms, period=query.period, every_term=query.every_term, asks_when=query.asks_when,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class SearchHit:
    score: float  # normalized into [0, 1] within the page
    event: EventHead
    turn: TurnHead
    session: SessionRecord
    snippet: Snippet


@dataclass(frozen=True, slots=True)
class SearchPage:
    hits: list[SearchHit]
    truncated: bool


class _Sizes(NamedTuple):
    generation: int  # the store's write generation they were counted at
    docs: int
    total: int  # the documents' summed lengths


class _CorpusSizes:
    """(documents, total length) by event-type set, kept while the store's write generation stays the same."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, str, tuple[str, ...]], _Sizes] = {}
        self._lock = threading.Lock()

    def get(self, store: Store, types: tuple[str, ...]) -> tuple[int, int]:
        generation = store.write_generation
        key = (store.dsn, store.database, types)
        kept = self._kept.get(key)
        if generation is not None and kept is not None and kept.generation == generation:
            return kept.docs, kept.total
        rows = store.query(
            f"SELECT sum(docs), sum(total_len) FROM {store.table('doc_stats')} WHERE type IN {{types:Array(String)}}",
            {"types": list(types)},
        )
        docs, total = (int(value or 0) for value in rows[0]) if rows else (0, 0)
        if generation is not None:
            with self._lock:
                if len(self._kept) > 256:  # type sets are few; this only bounds a pathological caller
                    self._kept.clear()
                self._kept[key] = _Sizes(generation, docs, total)
        return docs, total


_corpus_sizes = _CorpusSizes()
_FORM_FLOOR = 1000  # a form in fewer events is always cheap enough to rank


def _document_frequencies(store: Store, terms: list[str], types: tuple[str, ...]) -> dict[str, int]:
    rows = store.query(
        f"SELECT term, count() FROM {store.table('postings')} "
        "WHERE term IN {terms:Array(String)} AND type IN {types:Array(String)} GROUP BY term",
        {"terms": terms, "types": list(types)},
    )
    return {str(term): int(n) for term, n in rows}


def _idf(n_docs: float, df: int) -> float:
    return math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))


def _ranked(store: Store, query: SearchQuery, bm25: Bm25) -> list[Scored]:
    """Return up to limit + 1 rows (raw scores) in the contract's order."""
    by_session = bm25.session_weight > 0 and query.session_key is None
    depth = max(query.limit + 1, bm25.session_depth) if by_session else query.limit + 1
    terms, idf, rows = _event_scores(store, replace(query, limit=depth - 1), bm25)
    if not by_session or len({row.key for row in rows}) < 2:
        return [row.scored() for row in rows[: query.limit + 1]]
    sessions = _session_scores(store, query, bm25, terms, idf, sorted({row.key for row in rows}))
    best_event = max((row.score for row in rows), default=0.0) or 1.0
    best_session = max(sessions.values(), default=0.0) or 1.0
    scored = [
        row._replace(
            score=round(
                row.score / best_event + bm25.session_weight * sessions.get(row.key, 0.0) / best_session,
                _SCORE_DIGITS,
            )
        )
        for row in rows
    ]
    return [row.scored() for row in _contract_order(scored)[: query.limit + 1]]


def _in_period_lifted(store: Store, ranked: list[Scored], period: Period, weight: float) -> list[Scored]:
    """Multiply the scores of the events that fall in ``period`` by ``1 + weight``, in the contract's order."""
    if not ranked:
        return ranked
    rows = store.query(
        f"SELECT session_key, seq, timestamp FROM {store.table('events')} "
        "WHERE (session_key, seq) IN {pairs:Array(Tuple(UInt64, UInt32))}",
        {"pairs": [row.ref for row in ranked]},
    )
    stamps = {(int(key), int(seq)): ts for key, seq, ts in rows}
    lifted = []
    for row in ranked:
        ts = stamps.get(row.ref)
        factor = 1.0 + weight if period.contains(ts) else 1.0
        lifted.append(Dated(row.key, row.seq, ts, round(row.score * factor, _SCORE_DIGITS)))
    return [row.scored() for row in _contract_order(lifted)]


def _contract_order(rows: list[Dated]) -> list[Dated]:
    """Sort by score descending, newest first, then key and seq ascending."""
    rows = sorted(rows, key=lambda r: (r.key, r.seq))
    rows.sort(
        key=lambda r: r.timestamp.timestamp() if r.timestamp is not None else float("-inf"), reverse=True
    )
    rows.sort(key=lambda r: r.score, reverse=True)
    return rows


def session_lengths_sql(store: Store) -> str:
    """The read of the candidate sessions' lengths (parameters ``keys`` and ``types``): the sum of doc_len over
    their events of those types. Its shape is the one the events table's ``session_lengths`` projection answers."""
    return (
        f"SELECT session_key, sum(doc_len) FROM {store.table('events')} WHERE session_key IN {{keys:Array(UInt64)}} "
        "AND type IN {types:Array(String)} GROUP BY session_key"
    )


def _session_scores(
    store: Store, query: SearchQuery, bm25: Bm25, terms: list[str], idf: list[float], keys: list[int]
) -> dict[int, float]:
    """BM25 of each candidate session taken as one document (its events of the query's types).

    The lengths come from the events table's ``session_lengths`` projection (migration 009), one row per session
    and type per part, which ClickHouse picks for this query on its own.
    """
    params = {"terms": terms, "types": list(query.types), "keys": keys}
    tf_rows, length_rows = query_together(
        store,
        params,
        f"SELECT session_key, term, sum(tf) FROM {store.table('postings')} WHERE term IN {{terms:Array(String)}} "
        "AND session_key IN {keys:Array(UInt64)} AND type IN {types:Array(String)} GROUP BY session_key, term",
        session_lengths_sql(store),
    )
    lengths = {int(key): float(n) for key, n in length_rows}
    average = max(sum(lengths.values()) / len(lengths), 1.0) if lengths else 1.0
    weight = dict(zip(terms, idf, strict=True))
    scores: dict[int, float] = {}
    for key, term, tf in tf_rows:
        norm = bm25.k1 * (1 - bm25.b + bm25.b * lengths.get(int(key), average) / average)
        scores[int(key)] = scores.get(int(key), 0.0) + weight[str(term)] * tf * (bm25.k1 + 1) / (tf + norm)
    return scores


def _event_scores(store: Store, query: SearchQuery, bm25: Bm25) -> tuple[list[str], list[float], list[Dated]]:
    """Return the terms ranked by, their weights (idf, scaled for forms), and up to limit + 1 rows by event."""
    docs, total = _corpus_sizes.get(store, query.types)
    avgdl = max(total / docs, 1.0) if docs else 1.0
    tools = [t for t in query.types if t in TOOL_TYPES]
    only_tools = len(tools) == len(query.types)
    form_weight = bm25.tool_form_weight if only_tools else bm25.form_weight
    forms = list(query.forms) if form_weight > 0 else []
    if len(query.terms) == 1 and not forms:
        # One term: every score is idf(term) times the term's weight, and scores are normalized by the top one, so
        # idf changes neither order nor result and its document frequency need not be counted.
        terms, idf = list(query.terms), [1.0]
    else:
        df = _document_frequencies(store, [*query.terms, *forms], query.types)
        n_docs = float(max(docs, max(df.values(), default=0)))
        common = max(bm25.form_max_share * n_docs, _FORM_FLOOR)
        terms = [t for t in query.terms if t in df] + [t for t in forms if t in df and df[t] <= common]
        typed = set(query.terms)
        idf = [_idf(n_docs, df[t]) * (1.0 if t in typed else form_weight) for t in terms]
    if not terms:
        return terms, idf, []
    where = ["term IN {terms:Array(String)}", "type IN {types:Array(String)}"]
    params: dict[str, Any] = {
        "terms": terms,
        "idf": idf,
        "types": list(query.types),
        "k1": bm25.k1,
        "b": bm25.tool_b if only_tools else bm25.b,
        "avgdl": avgdl,
        "limit": query.limit + 1,
    }
    # Postings hold only the event's own keys (migration 016): a harness's or a source's sessions come from the
    # sessions table, a turn's events from the events table.
    for column, value in (("harness", query.harness), ("source", query.source)):
        if value is not None:
            where.append(
                f"session_key IN (SELECT session_key FROM {store.table('sessions')} FINAL "
                f"WHERE {column} = {{{column}:String}})"
            )
            params[column] = value
    if query.session_key is not None:
        where.append("session_key = {session_key:UInt64}")
        params["session_key"] = query.session_key
    if query.turn_seq is not None:
        where.append(
            f"seq IN (SELECT seq FROM {store.table('events')} WHERE session_key = {{session_key:UInt64}} "
            "AND turn_seq = {turn_seq:UInt32})"
        )
        params["turn_seq"] = query.turn_seq
    if query.floor is not None:
        condition, floor_params = project_condition(store, query.floor.project_id)
        where.append(condition)
        params.update(floor_params)
    term_weight, b = "transform(term, {terms:Array(String)}, {idf:Array(Float64)}, 0.0)", "{b:Float64}"
    if tools and not only_tools:
        # Tool calls and outputs among other types: their own length normalization and form weight, by row.
        tool = "type IN {tool_types:Array(String)}"
        params.update(tool_types=tools, tool_b=bm25.tool_b)
        b = f"if({tool}, {{tool_b:Float64}}, {b})"
        forms_read = [t for t in terms if t not in query.terms]
        if forms_read and bm25.tool_form_weight == 0:
            where.append(f"NOT ({tool} AND term IN {{forms_read:Array(String)}})")  # no row scored 0
            params["forms_read"] = forms_read
        elif forms_read:
            scale = bm25.tool_form_weight / form_weight
            params["tool_idf"] = [
                w if t in query.terms else w * scale for t, w in zip(terms, idf, strict=True)
            ]
            tool_weight = "transform(term, {terms:Array(String)}, {tool_idf:Array(Float64)}, 0.0)"
            term_weight = f"if({tool}, {tool_weight}, {term_weight})"
    norm = f"{{k1:Float64}} * (1 - {b} + {b} * doc_len / {{avgdl:Float64}})"
    weight = f"{term_weight} * tf * ({{k1:Float64}} + 1) / (tf + {norm})"
    if len(terms) == 1:
        # One posting per (term, event): each row is a whole score, so no aggregation (half the cost on common terms).
        select, group = f"timestamp AS ts, round({weight}, {_SCORE_DIGITS}) AS score", ""
    else:
        select, group = (
            f"any(timestamp) AS ts, round(sum({weight}), {_SCORE_DIGITS}) AS score",
            "GROUP BY session_key, seq ",
        )
    sql = (
        f"SELECT session_key, seq, {select} FROM {store.table('postings')} WHERE {' AND '.join(where)} {group}"
        "ORDER BY score DESC, ts DESC NULLS LAST, session_key ASC, seq ASC "
        "LIMIT {limit:UInt32}"
    )
    return (
        terms,
        idf,
        [Dated(int(key), int(seq), ts, float(score)) for key, seq, ts, score in store.query(sql, params)],
    )


def _hydrate(
    store: Store, pairs: list[tuple[int, int]]
) -> tuple[dict[tuple[int, int], EventHead], dict[tuple[int, int], TurnHead], dict[int, SessionRecord]]:
    """Return the hits' events, their turns and their sessions, by key (three lookups at once)."""
    params = {"pairs": sorted(set(pairs)), "keys": sorted({key for key, _ in pairs})}
    event_rows, turn_rows, session_rows = query_together(
        store,
        params,
        f"SELECT {HEAD_COLUMNS} FROM {store.table('events')} "
        "WHERE (session_key, seq) IN {pairs:Array(Tuple(UInt64, UInt32))}",
        # A turn's events are the contiguous seq range [first_seq, last_seq]: no second read of events.
        f"SELECT {TURN_HEAD_COLUMNS} FROM {store.table('turns')} FINAL WHERE session_key IN {{keys:Array(UInt64)}} "
        "AND arrayExists(hit -> hit.1 = session_key AND hit.2 BETWEEN first_seq AND last_seq, "
        "{pairs:Array(Tuple(UInt64, UInt32))})",
        f"SELECT {SESSION_COLUMNS} FROM {store.table('sessions')} FINAL WHERE session_key IN {{keys:Array(UInt64)}}",
    )
    events = {(e.key, e.seq): e for e in map(event_head, event_rows)}
    turns = {(t.key, t.turn_seq): t for t in map(turn_head, turn_rows)}
    sessions = {s.key: s for s in map(session_from_row, session_rows)}
    return events, turns, sessions


def search(
    store: Store,
    query: SearchQuery,
    bm25: Bm25,
    snippet_chars: int,
    fuse: Fuse | None = None,
) -> SearchPage:
    """Run a search and return its hydrated page (at most ``query.limit`` hits); ``fuse``: hybrid ranking."""
    period = query.period if bm25.time_weight > 0 else None
    pool = query if period is None else replace(query, limit=max(query.limit, bm25.session_depth))
    if fuse is not None:
        fuse.prefetch(store, pool)
    if fuse is None:
        ranked = _ranked(store, pool, bm25)
        if not ranked and len(query.every_term) > len(query.terms):
            # Only function words were left out and nothing else matched ("correos de confirmación duplicados"
            # against a French message): the little words that remain are better than no answer at all.
            query = replace(query, terms=query.every_term, forms=())
            ranked = _ranked(store, replace(pool, terms=query.terms, forms=()), bm25)
    else:
        ranked = fuse(store, pool, _ranked(store, replace(pool, limit=max(pool.limit, fuse.depth)), bm25))
    if period is not None:
        ranked = _in_period_lifted(store, ranked, period, bm25.time_weight)[: query.limit + 1]
    words = [*query.terms, *query.forms]
    if bm25.when_weight > 0 and query.asks_when:
        if bm25.replies_first:
            ranked = replies_first(store, ranked, words, query.types, query.limit + 1, query.turn_seq)
        ranked = said_when_lifted(store, ranked, bm25.when_weight)
    elif bm25.replies_first and ranked and words:
        return _replied_page(store, ranked, query, words, snippet_chars)
    return hydrate_page(store, ranked, query.limit, words, snippet_chars)


# The events of the candidates' windows (``moraine.store.reads.replies``) as ``HEAD_COLUMNS``, their text and arguments
# only where a hit may come from: a candidate, or a person's message that may be the reply lifted to its place.
_WINDOW_HIT = "((session_key, seq) IN {pairs:Array(Tuple(UInt64, UInt32))} OR type = 'user_input')"
_WINDOW_COLUMNS = head_columns(f"if({_WINDOW_HIT}, text, '')", f"if({_WINDOW_HIT}, arguments, NULL)")
_WINDOW_ASKS = f"(session_key, seq) IN {{pairs:Array(Tuple(UInt64, UInt32))}} AND {ASKS}"


def _replied_page(
    store: Store, ranked: list[Scored], query: SearchQuery, words: list[str], snippet_chars: int
) -> SearchPage:
    """Replies first, then the page, with one round of reads: the candidates' windows (which hold every event the
    page can show), the turns they meet and their sessions, at once."""
    params = window_parameters(ranked, query.types, query.turn_seq)
    event_rows, turn_rows, session_rows = query_together(
        store,
        params,
        f"SELECT {_WINDOW_COLUMNS}, {_WINDOW_ASKS} FROM {store.table('events')} "
        f"WHERE {window_condition(query.turn_seq)}",
        f"SELECT {TURN_HEAD_COLUMNS} FROM {store.table('turns')} FINAL WHERE session_key IN {{keys:Array(UInt64)}} "
        "AND arrayExists(p -> p.1 = session_key AND p.2 + {reach:UInt32} >= first_seq AND p.2 <= last_seq, "
        "{pairs:Array(Tuple(UInt64, UInt32))})",
        f"SELECT {SESSION_COLUMNS} FROM {store.table('sessions')} FINAL WHERE session_key IN {{keys:Array(UInt64)}}",
    )
    heads = [(event_head(row[:-1]), bool(row[-1])) for row in event_rows]
    events = {(e.key, e.seq): e for e, _ in heads}
    asking = ((e.key, e.seq, e.type, e.text if asks else "") for e, asks in heads)
    ranked = lift_replies(ranked, find_replies(asking, words), query.limit + 1)
    turns = {(t.key, t.turn_seq): t for t in map(turn_head, turn_rows)}
    sessions = {s.key: s for s in map(session_from_row, session_rows)}
    return _page(ranked, query.limit, events, turns, sessions, words, snippet_chars)


def hydrate_page(
    store: Store, ranked: list[Scored], limit: int, terms: list[str], snippet_chars: int
) -> SearchPage:
    """Return the page of the first ``limit`` of ``ranked``, hydrated, with snippets around ``terms``
    (truncated: ``ranked`` held more)."""
    if not ranked[:limit]:
        return SearchPage([], False)
    events, turns, sessions = _hydrate(store, [row.ref for row in ranked[:limit]])
    return _page(ranked, limit, events, turns, sessions, terms, snippet_chars)


def _page(
    ranked: list[Scored],
    limit: int,
    events: dict[tuple[int, int], EventHead],
    turns: dict[tuple[int, int], TurnHead],
    sessions: dict[int, SessionRecord],
    terms: list[str],
    snippet_chars: int,
) -> SearchPage:
    """The page of the first ``limit`` of ``ranked`` from their events, turns and sessions (truncated: ``ranked``
    held more)."""
    truncated = len(ranked) > limit
    ranked = ranked[:limit]
    if not ranked:
        return SearchPage([], False)
    top = max(row.score for row in ranked)
    hits: list[SearchHit] = []
    for row in ranked:
        event = events.get(row.ref)
        turn = turns.get((row.key, event.turn_seq)) if event else None
        session = sessions.get(row.key)
        if event is None or turn is None or session is None:
            continue  # published out of order or removed by a rewrite: never show a half-hydrated hit
        # An encrypted reasoning payload is opaque: its snippet is the placeholder, never payload bytes.
        sources = (
            [ENCRYPTED_REASONING_PLACEHOLDER] if event.encrypted else [event.text, event.arguments or ""]
        )
        hits.append(
            SearchHit(
                score=min(1.0, max(0.0, row.score / top)) if top > 0 else 0.0,
                event=event,
                turn=turn,
                session=session,
                snippet=make_snippet(sources, terms, snippet_chars),
            )
        )
    return SearchPage(hits, truncated)
