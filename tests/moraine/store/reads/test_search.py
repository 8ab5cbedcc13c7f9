"""BM25 search over postings: relevance, ordering, filters, truncation and snippets."""

from __future__ import annotations

import math

from fixtures.corpus.builder import Corpus, Ev, Sess, at
from fixtures.corpus.small import ENCRYPTED, Small
from moraine.terms.tokenize import query_terms
from moraine.store.client import Store
from moraine.store.reads.search import Bm25, SearchPage, SearchQuery, search

DEFAULT = ("user_input", "assistant_response")
EVENTS_ONLY = Bm25(session_weight=0.0)  # plain BM25 per event, no session evidence


def run(
    store: Store,
    text: str,
    types: tuple[str, ...] = DEFAULT,
    limit: int = 10,
    bm25: Bm25 = Bm25(),
    **kw: object,
) -> SearchPage:
    query = SearchQuery(tuple(query_terms(text)), types, limit, **kw)  # type: ignore[arg-type]  # test shorthand
    return search(store, query, bm25, snippet_chars=80)


def texts(page: SearchPage) -> list[str]:
    return [hit.event.text for hit in page.hits]


def test_camel_case_identifier_query_ranks_the_event_naming_it_first(
    small_store: tuple[Store, Small],
) -> None:
    store, _ = small_store
    page = run(store, "parseConfigFile")
    assert "parseConfigFile" in page.hits[0].event.text
    assert len(page.hits) > 1  # prose about parsing a config file also matches, lower


def test_snake_case_identifier_query_ranks_the_event_naming_it_first(
    small_store: tuple[Store, Small],
) -> None:
    store, _ = small_store
    page = run(store, "parse_config_file")
    assert "parse_config_file" in page.hits[0].event.text
    assert "parse_config_file" in page.hits[1].event.text
    assert "parse_config_file" not in page.hits[2].event.text


def test_path_query_ranks_the_event_naming_the_path_first(small_store: tuple[Store, Small]) -> None:
    store, _ = small_store
    page = run(store, "src/config/parser.py")
    assert "src/config/parser.py" in page.hits[0].event.text
    assert page.hits[0].score == 1.0 and page.hits[1].score < 1.0


def test_non_ascii_words_and_cjk_text_are_found(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    for query in ("Größe", "größe", "ПРИВЕТ", "東京", "天気"):
        page = run(store, query)
        assert [hit.session.key for hit in page.hits] == [small.unicode], query


def test_tool_call_arguments_are_found_only_when_tool_call_is_selected(
    small_store: tuple[Store, Small],
) -> None:
    store, small = small_store
    assert run(store, "includeDirective").hits == []
    page = run(store, "includeDirective", types=("tool_call",))
    assert [(h.session.key, h.event.type) for h in page.hits] == [(small.parser, "tool_call")]
    assert "includeDirective" in page.hits[0].snippet.text


def test_moraine_own_tool_calls_are_never_hits(small_store: tuple[Store, Small]) -> None:
    store, _ = small_store
    page = run(store, "validation summary", types=("tool_call",))
    assert page.hits == []
    assert run(store, "validation", types=DEFAULT).hits  # the words themselves are indexed elsewhere


def test_ties_order_by_timestamp_desc_with_nulls_last_then_event_id(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    page = run(store, "zebra tiebreaker")
    assert {hit.score for hit in page.hits} == {1.0}
    order = [(hit.event.timestamp, hit.event.seq) for hit in page.hits]
    stamped = [o for o in order if o[0] is not None]
    assert order[-1][0] is None
    assert stamped == sorted(stamped, key=lambda o: (-o[0].timestamp(), o[1]))  # type: ignore[union-attr]
    assert [o[1] for o in order] == [2, 3, 1, 5, 4]
    assert all(hit.session.key == small.ties for hit in page.hits)


def test_limit_is_honoured_exactly_and_truncated_only_when_more_exist(
    small_store: tuple[Store, Small],
) -> None:
    store, _ = small_store
    assert len(run(store, "zebra", limit=5).hits) == 5
    assert run(store, "zebra", limit=5).truncated is False
    page = run(store, "zebra", limit=3)
    assert len(page.hits) == 3 and page.truncated is True
    assert [h.event.seq for h in page.hits] == [h.event.seq for h in run(store, "zebra").hits[:3]]


def test_scores_are_normalized_into_unit_interval_and_descending(small_store: tuple[Store, Small]) -> None:
    store, _ = small_store
    page = run(store, "config parser loader")
    scores = [hit.score for hit in page.hits]
    assert scores[0] == 1.0
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert scores == sorted(scores, reverse=True)


def test_harness_and_source_filters_are_exact_and_anded(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    assert {h.session.key for h in run(store, "config", harness="claude-code").hits} == {small.parser}
    assert {h.session.key for h in run(store, "config", source="codex").hits} == {small.rename}
    assert run(store, "config", harness="claude-code", source="codex").hits == []
    assert run(store, "config", harness="Claude-Code").hits == []


def test_session_and_turn_scopes_never_leak(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    in_session = run(store, "config parser", session_key=small.parser)
    assert in_session.hits and {h.session.key for h in in_session.hits} == {small.parser}
    in_turn = run(store, "config parser", session_key=small.parser, turn_seq=2)
    assert in_turn.hits and {(h.session.key, h.turn.turn_seq) for h in in_turn.hits} == {(small.parser, 2)}


def test_hits_are_hydrated_with_turn_and_titled_session(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    hit = run(store, "ClickHouse schema migration").hits[0]
    assert hit.session.key == small.migration
    assert hit.session.title == "Fix ClickHouse schema migration failure"
    assert (hit.turn.turn_seq, hit.turn.completed, hit.turn.event_count) == (1, True, 5)
    assert hit.event.ordinal in (1, 5)


def test_unknown_terms_return_an_empty_page(small_store: tuple[Store, Small]) -> None:
    store, _ = small_store
    page = run(store, "nonexistentwordxyz")
    assert page.hits == [] and page.truncated is False


def test_encrypted_reasoning_hits_show_the_placeholder_not_the_payload(store: Store) -> None:
    corpus = Corpus(store)
    corpus.add(Sess("enc", turns=[[Ev("reasoning", "opaquetoken " + ENCRYPTED, at(1), encrypted=True)]]))
    page = run(store, "opaquetoken", types=("reasoning",))
    assert [hit.snippet.text for hit in page.hits] == ["[encrypted reasoning omitted]"]


def _bm25_by_hand(store: Store, terms: list[str], types: tuple[str, ...]) -> dict[tuple[int, int], float]:
    """Normalized BM25 scores computed in Python from the stored postings and document statistics."""
    docs, total = store.query(
        f"SELECT sum(docs), sum(total_len) FROM {store.table('doc_stats')} WHERE type IN {{types:Array(String)}}",
        {"types": list(types)},
    )[0]
    rows = store.query(
        f"SELECT term, session_key, seq, tf, doc_len FROM {store.table('postings')} "
        "WHERE term IN {terms:Array(String)} AND type IN {types:Array(String)}",
        {"terms": terms, "types": list(types)},
    )
    df = {term: sum(1 for row in rows if row[0] == term) for term in terms}
    n_docs, avgdl, k1, b = max(int(docs), *df.values()), int(total) / int(docs), 1.2, 0.75
    raw: dict[tuple[int, int], float] = {}
    for term, key, seq, tf, doc_len in rows:
        idf = math.log(1 + (n_docs - df[term] + 0.5) / (df[term] + 0.5))
        weight = idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * doc_len / avgdl))
        raw[(key, seq)] = raw.get((key, seq), 0.0) + weight
    top = max(raw.values())
    return {ref: score / top for ref, score in raw.items()}


def test_scores_are_bm25_for_one_term_and_several_and_follow_new_writes(store: Store) -> None:
    corpus = Corpus(store)
    corpus.add(
        Sess(
            "bm25-a",
            turns=[
                [Ev("user_input", "walrus tusk", at(1))],
                [Ev("assistant_response", "walrus walrus and a long tail of other words here", at(2))],
                [Ev("assistant_response", "tusk only", at(3))],
            ],
        )
    )
    for wave in range(2):
        for text in ("walrus", "walrus tusk"):
            terms = list(query_terms(text))
            page = run(store, text, limit=20, bm25=EVENTS_ONLY)
            expected = _bm25_by_hand(store, terms, DEFAULT)
            assert len(page.hits) == len(expected) >= 2
            for hit in page.hits:
                assert abs(hit.score - expected[(hit.event.key, hit.event.seq)]) < 1e-6, (wave, text)
        # Longer documents change the average length (and the walrus document frequency): scores must follow.
        filler = " ".join(f"filler{i}" for i in range(60))
        corpus.add(Sess("bm25-b", turns=[[Ev("user_input", f"walrus {filler}", at(4))]]))
