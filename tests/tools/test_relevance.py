"""The relevance benchmark on the project's labeled set: hybrid ranking beats BM25 and no category gets worse.

Needs the embedding model (the ``semantic`` extra): without it the fixture fails, it never skips.
"""

from __future__ import annotations

from collections import Counter

import pytest

from moraine.semantic.hybrid import SemanticSettings
from tests.fixtures.relevance import store as relevance_fixtures
from tests.fixtures.relevance.store import RelevanceStore
from tools.relevance.labels import load_queries, resolve
from tools.relevance.run import Outcome, evaluate

relevance_store = relevance_fixtures.relevance_store  # the session-wide fixture, used by name

CATEGORIES = {"paraphrase", "partial_memory", "identifier", "non_english", "tool_evidence"}


@pytest.fixture(scope="module")
def outcome(relevance_store: RelevanceStore) -> Outcome:
    """Rank every labeled query lexically, by vector and hybrid (default settings)."""
    return evaluate(relevance_store.store, relevance_store.embedder, SemanticSettings())


def test_the_set_has_60_queries_over_every_category_each_naming_one_event(
    relevance_store: RelevanceStore,
) -> None:
    queries = load_queries()
    assert len(queries) >= 60
    per_category = Counter(q.category for q in queries)
    assert set(per_category) == CATEGORIES and min(per_category.values()) >= 10
    answers = resolve(relevance_store.store, queries)  # raises unless each label names exactly one event
    assert len(set(answers.values())) >= 40
    assert relevance_store.embedded > 100


def test_hybrid_beats_lexical_on_mrr_and_recall_at_1(outcome: Outcome) -> None:
    lexical, hybrid = outcome.scores("lexical"), outcome.scores("hybrid")
    assert hybrid.mrr10 > lexical.mrr10
    assert hybrid.recall1 >= lexical.recall1
    assert hybrid.recall10 >= lexical.recall10


@pytest.mark.parametrize("category", sorted(CATEGORIES))
def test_no_category_gets_worse_on_average_with_hybrid_ranking(outcome: Outcome, category: str) -> None:
    lexical, hybrid = outcome.scores("lexical", category), outcome.scores("hybrid", category)
    assert hybrid.queries >= 10
    assert hybrid.mrr10 >= lexical.mrr10, f"{category}: hybrid {hybrid} vs lexical {lexical}"
    assert hybrid.recall10 >= lexical.recall10, f"{category}: hybrid {hybrid} vs lexical {lexical}"


def test_paraphrases_are_where_vectors_help(outcome: Outcome) -> None:
    lexical, hybrid = outcome.scores("lexical", "paraphrase"), outcome.scores("hybrid", "paraphrase")
    assert hybrid.mrr10 > lexical.mrr10
    # An answer in other words than the query's: only the vectors find it.
    assert hybrid.recall10 > lexical.recall10


def test_the_lexical_baseline_needs_no_model(relevance_store: RelevanceStore) -> None:
    out = evaluate(relevance_store.store, None, SemanticSettings())
    assert list(out.ranks) == ["lexical"]
    assert out.scores("lexical").recall10 > 0.8
