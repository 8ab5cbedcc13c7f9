"""search_sessions without function words, and with them when nothing else in the query is found."""

from __future__ import annotations

from tests.fixtures.handler_data import search_data
from moraine.store.reads.search import Bm25
from tests.fixtures.requests import search_request
from tests.fixtures.relevance import store as relevance_fixtures
from tests.fixtures.relevance.store import RelevanceStore

relevance_store = relevance_fixtures.relevance_store  # the session-wide fixture, used by name


def _snippets(rs: RelevanceStore, query: str) -> list[str]:
    data = search_data(
        rs.store,
        search_request(query=query, event_types=["user_input", "assistant_response"], n_hits=10),
        bm25=Bm25(),
        snippet_chars=240,
    )
    return [r["snippet"]["text"] for r in data["results"]]


def test_a_query_whose_content_words_find_nothing_is_searched_with_its_function_words(
    relevance_store: RelevanceStore,
) -> None:
    # Spanish words that no message holds, around "de", which the French answer shares.
    found = _snippets(relevance_store, "correos de confirmación duplicados")
    assert any("partent en double" in text for text in found)


def test_function_words_are_left_out_while_the_other_words_find_something(
    relevance_store: RelevanceStore,
) -> None:
    # "de" is in many messages; "backup" alone decides, so every hit holds it.
    found = _snippets(relevance_store, "backup de la base")
    assert found and all("backup" in text.lower() or "base" in text.lower() for text in found)
