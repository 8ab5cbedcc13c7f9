"""Issue 43, item 5: a search query at the 4,096-character cap costs what a short one does.

The cost was the embedding model's: its time grows with the text it reads (4,096 characters of random words took
4.8 s of CPU, of CJK 9.5 s; one model serves a daemon's calls one at a time). The query is embedded by its head
(``MAX_QUERY_CHARS``), all of its words still go to BM25 (at most 32 distinct terms, ``query_terms``).
"""

from __future__ import annotations

from collections.abc import Sequence

from moraine.semantic.hybrid import Hybrid, SemanticSettings
from moraine.store.client import Store
from moraine.store.reads.search import Bm25
from moraine.terms.query import parse_query
from tests.fixtures.handler_data import search_data
from tests.fixtures.requests import search_request

QUESTION = "why does the nightly backup of the reporting database stop half way through on the second disk "


class _Recording:
    """An embedding model that records what it is asked to read (the store's vectors table is empty)."""

    name = "recording"

    def __init__(self) -> None:
        self.read: list[str] = []

    def query(self, text: str) -> list[float]:
        self.read.append(text)
        return [1.0] + [0.0] * 383

    def passages(self, texts: Sequence[str]) -> list[list[float]]:
        raise AssertionError("a search embeds no passage")


def test_a_query_at_the_length_cap_is_embedded_by_its_head_and_searched_by_its_terms(store: Store) -> None:
    text = (QUESTION * 50)[:4096]
    model = _Recording()
    request = search_request(query=text, event_types=["user_input", "assistant_response"], n_hits=5)
    data = search_data(
        store, request, bm25=Bm25(), snippet_chars=240, hybrid=Hybrid(model, SemanticSettings(min_words=2))
    )
    assert data["results"] == []
    assert len(model.read) == 1 and len(model.read[0]) <= 256 and QUESTION.startswith(model.read[0][:90])
    assert len(parse_query(text).terms) <= 32
