"""search_sessions with hybrid ranking on: same envelope and ordering rules, filters apply to vector candidates."""

from __future__ import annotations

from typing import Any

from handlers import Deps, Settings
from handlers.search_sessions import handle
from moraine import ids
from moraine.handler_api import data_json
from moraine.semantic.hybrid import Hybrid, SemanticRanker, SemanticSettings
from moraine.store.reads.search import Bm25
from tests.fixtures.handler_data import search_data
from tests.fixtures.requests import search_request
from tests.fixtures.relevance import store as relevance_fixtures
from tests.fixtures.relevance.store import RelevanceStore
from tools.relevance.labels import load_queries, resolve

relevance_store = relevance_fixtures.relevance_store  # the session-wide fixture, used by name

DEFAULT_TYPES = ["user_input", "assistant_response"]


def _hybrid(rs: RelevanceStore, **settings: Any) -> Hybrid:
    return Hybrid(rs.embedder, SemanticSettings(**settings))


def _search(
    rs: RelevanceStore, query: str, hybrid: Hybrid | None = None, notes: list[str] | None = None, **kw: Any
) -> dict[str, Any]:
    """Search lexically, or with ``hybrid`` (the ranker the handler gets from its Deps)."""
    args: dict[str, Any] = {"event_types": DEFAULT_TYPES, "n_hits": 10} | kw
    request = search_request(query=query, **args)
    return search_data(rs.store, request, bm25=Bm25(), snippet_chars=240, notes=notes, hybrid=hybrid)


def _texts(rs: RelevanceStore, data: dict[str, Any]) -> list[str]:
    return [r["snippet"]["text"] for r in data["results"]]


def test_a_paraphrase_that_lexical_ranking_misses_is_found_with_hybrid_ranking(
    relevance_store: RelevanceStore,
) -> None:
    query = "a regular expression makes the server hang"  # the answer says "backtracks catastrophically"
    lexical = _search(relevance_store, query)
    hybrid = _search(relevance_store, query, _hybrid(relevance_store))
    assert not any("backtracks catastrophically" in text for text in _texts(relevance_store, lexical))
    assert any("backtracks catastrophically" in text for text in _texts(relevance_store, hybrid))


def test_the_handler_ranks_with_the_ranker_its_deps_hold_and_lexically_while_the_holder_is_empty(
    relevance_store: RelevanceStore,
) -> None:
    # The answer says "backtracks catastrophically".
    request = search_request(query="a regular expression makes the server hang", event_types=DEFAULT_TYPES)
    ranker = SemanticRanker()
    deps = Deps(relevance_store.store, Settings(), semantic=ranker)

    def found() -> bool:
        data = data_json(handle(request, deps).data)
        return any("backtracks catastrophically" in text for text in _texts(relevance_store, data))

    assert not found()
    ranker.current = _hybrid(relevance_store)  # as the semantic service does once the model has loaded
    assert found()
    ranker.current = None
    assert not found()


def test_hybrid_scores_are_normalized_and_ordered(relevance_store: RelevanceStore) -> None:
    data = _search(
        relevance_store,
        "the container keeps restarting after the release",
        _hybrid(relevance_store),
        n_hits=10,
    )
    scores = [r["score"] for r in data["results"]]
    assert len(scores) == 10 and data["truncated"] is True
    assert scores[0] == 1.0 and all(0.0 <= s <= 1.0 for s in scores)
    assert scores == sorted(scores, reverse=True) and len(set(scores)) == len(scores)
    assert [r["rank"] for r in data["results"]] == list(range(1, 11))


def test_identifier_queries_rank_exactly_as_without_vectors(relevance_store: RelevanceStore) -> None:
    lexical = _search(relevance_store, "render_thumbnail lru_cache")
    hybrid = _search(relevance_store, "render_thumbnail lru_cache", _hybrid(relevance_store))
    assert [r["id"] for r in hybrid["results"]] == [r["id"] for r in lexical["results"]]
    assert hybrid["results"]


def test_filters_and_scope_apply_to_vector_candidates(relevance_store: RelevanceStore) -> None:
    hybrid = _hybrid(relevance_store)
    by_harness = _search(
        relevance_store, "the pod was restarting because of a failing health check", hybrid, harness="codex"
    )
    assert by_harness["results"] and {r["session"]["harness"] for r in by_harness["results"]} == {"codex"}
    first = _search(relevance_store, "how to recover commits I lost while rebasing", hybrid)["results"][0]
    # Every meaning match, however weak, so that the scope is what bounds the vector candidates here.
    hybrid = _hybrid(relevance_store, meaning_floor=0.0)
    scoped = _search(relevance_store, "what did we change and why", hybrid, within_id=first["session"]["id"])
    assert scoped["results"] and {r["session"]["id"] for r in scoped["results"]} == {first["session"]["id"]}
    only_users = _search(
        relevance_store, "memory keeps growing until killed", hybrid, event_types=["user_input"]
    )
    assert only_users["results"] and {r["event"]["type"] for r in only_users["results"]} == {"user_input"}


def test_tool_evidence_searches_stay_lexical(relevance_store: RelevanceStore) -> None:
    query = "unable to get local issuer certificate"
    lexical = _search(relevance_store, query, event_types=["tool_response"])
    hybrid = _search(relevance_store, query, _hybrid(relevance_store), event_types=["tool_response"])
    assert hybrid == lexical and hybrid["results"]


def test_a_message_is_weighed_with_its_neighbours_in_the_session(relevance_store: RelevanceStore) -> None:
    """A partial memory of a migration: the answer's own wording is plain, the exchange around it is on topic."""
    (query,) = [q for q in load_queries() if q.id == "m10"]
    answer = resolve(relevance_store.store, [query])[query.id]

    def first(context: float) -> tuple[int, int]:
        hit = _search(relevance_store, query.query, _hybrid(relevance_store, context=context))["results"][0]
        parsed = ids.parse_id(hit["id"])
        assert isinstance(parsed, ids.EventId)
        return parsed.key, parsed.seq

    assert first(0.0) != answer
    assert first(SemanticSettings().context) == answer


def _words_in(text: str, query: str) -> bool:
    return any(word[:4] in text.lower() for word in query.lower().split() if len(word) > 3)  # forms count too


def test_a_hit_holding_none_of_the_query_words_is_marked_a_meaning_match_and_named_in_the_warnings(
    relevance_store: RelevanceStore,
) -> None:
    from moraine.terms.marks import MEANING_MATCH

    query = "a regular expression makes the server hang"  # the answer says "backtracks catastrophically"
    notes: list[str] = []
    data = _search(relevance_store, query, _hybrid(relevance_store), notes=notes)
    answer = next(r for r in data["results"] if "backtracks catastrophically" in r["snippet"]["text"])
    assert answer["snippet"]["text"].startswith(MEANING_MATCH)
    marked = [r["rank"] for r in data["results"] if r["snippet"]["text"].startswith(MEANING_MATCH)]
    assert answer["rank"] in marked
    assert notes == [f"hits {', '.join(map(str, marked))} match the query's meaning but none of its words "
                     "(snippet marked [meaning match])"] or (len(marked) == 1 and notes[0].startswith("hit "))  # fmt: skip
    for hit in data["results"]:  # every unmarked hit holds a query word
        assert hit["rank"] in marked or _words_in(hit["snippet"]["text"], query), hit["snippet"]["text"]


def test_meaning_matches_under_the_floor_are_left_out(relevance_store: RelevanceStore) -> None:
    from moraine.terms.marks import MEANING_MATCH

    query = "Employee dataclass fields"
    counts = {}
    for floor in (0.0, 0.845, 1.0):
        data = _search(relevance_store, query, _hybrid(relevance_store, meaning_floor=floor))
        counts[floor] = sum(r["snippet"]["text"].startswith(MEANING_MATCH) for r in data["results"])
    assert counts[0.0] > counts[0.845] >= counts[1.0] == 0
