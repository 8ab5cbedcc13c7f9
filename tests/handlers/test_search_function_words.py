"""search_sessions without function words, and with them when nothing else in the query is found."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from moraine.store.client import Store
from moraine.store.reads.search import Bm25
from tests.fixtures.handler_data import search_data
from tests.fixtures.requests import search_request
from tools.relevance.run import ingest_corpus


@pytest.fixture(scope="module")
def corpus(store_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """The relevance corpus (several languages), ingested without vectors: these searches are lexical, so the
    session-wide ``relevance_store`` (which embeds every message) would only be built for them on a worker whose
    other modules do not need it."""
    database = f"fw_{uuid.uuid4().hex[:12]}"
    store = Store.open(store_dsn, database=database)
    try:
        ingest_corpus(store, tmp_path_factory.mktemp("function-words"))
        yield store
    finally:
        store.command(f"DROP DATABASE IF EXISTS {database}")
        store.close()


def _snippets(store: Store, query: str) -> list[str]:
    data = search_data(
        store,
        search_request(query=query, event_types=["user_input", "assistant_response"], n_hits=10),
        bm25=Bm25(),
        snippet_chars=240,
    )
    return [r["snippet"]["text"] for r in data["results"]]


def test_a_query_whose_content_words_find_nothing_is_searched_with_its_function_words(
    corpus: Store,
) -> None:
    # Spanish words that no message holds, around "de", which the French answer shares.
    found = _snippets(corpus, "correos de confirmación duplicados")
    assert any("partent en double" in text for text in found)


def test_function_words_are_left_out_while_the_other_words_find_something(
    corpus: Store,
) -> None:
    # "de" is in many messages; "backup" alone decides, so every hit holds it.
    found = _snippets(corpus, "backup de la base")
    assert found and all("backup" in text.lower() or "base" in text.lower() for text in found)
