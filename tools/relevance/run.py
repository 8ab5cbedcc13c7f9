"""Build the relevance store (ingest the fixture corpus, embed it) and rank every labeled query by each method."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from moraine.terms.forms import related_forms
from moraine.terms.query import FUNCTION_WORDS, parse_query
from moraine.semantic.embedder import Embedder
from moraine.semantic.hybrid import Fuser, Hybrid, SemanticSettings
from moraine.semantic.vectorizer import VECTOR_TYPES, vectorize_pending
from moraine.store.reads.vectors import nearest
from moraine.store.client import Store
from moraine.store.reads.search import Bm25, SearchQuery, search
from tools.relevance.labels import LabeledQuery
from tools.relevance.metrics import CUTOFF, Scores, score
from tools.relevance.sets import CURRENT, EventRef, RelevanceSet

__all__ = ["METHODS", "Outcome", "Ranking", "build_store", "evaluate", "ingest_corpus"]

METHODS = ("lexical", "vector", "hybrid")


@dataclass(slots=True)
class Outcome:
    """Ranks of each query's answer per method, and timings."""

    queries: list[LabeledQuery]
    ranks: dict[str, dict[str, int | None]] = field(default_factory=dict)  # method -> query id -> rank
    embed_seconds: float = 0.0
    embedded: int = 0
    latency_ms: dict[str, list[float]] = field(default_factory=dict)
    # Hybrid hits found by meaning alone (no query word): (query id, similarity in context, is the query's answer).
    meaning_only: list[tuple[str, float, bool]] = field(default_factory=list)

    def scores(self, method: str, category: str | None = None, by: str = "category") -> Scores:
        """Return the method's scores over all queries or one category (``by``: the query's ``category`` or its
        ``answer_kind``)."""
        chosen = [q for q in self.queries if category is None or getattr(q, by) == category]
        return score(self.ranks[method][q.id] for q in chosen)

    def categories(self, by: str = "category") -> list[str]:
        """Return the categories (``by``: ``category`` or ``answer_kind``) in first-seen order."""
        return list(dict.fromkeys(getattr(q, by) for q in self.queries if getattr(q, by)))


class _CachedQueries:
    """The embedder with query vectors memoized (each query is embedded once for the vector and hybrid runs)."""

    def __init__(self, embedder: Embedder) -> None:
        self.name = embedder.name
        self._embedder = embedder
        self.query = lru_cache(maxsize=None)(embedder.query)

    def passages(self, texts: Sequence[str]) -> list[list[float]]:  # pragma: no cover - not used for queries
        return self._embedder.passages(texts)


def ingest_corpus(store: Store, root: Path) -> None:
    """Write the current relevance corpus under ``root`` and ingest it into ``store`` (already migrated)."""
    CURRENT.ingest(store, root)


@contextmanager
def build_store(labels: RelevanceSet = CURRENT) -> Iterator[Store]:
    """Ingest the set's corpus into a fresh chDB store in a temporary directory and yield it."""
    with tempfile.TemporaryDirectory(prefix="moraine-relevance-") as tmp:
        store = Store.open(f"chdb://{Path(tmp) / 'store'}", database="relevance")
        try:
            store.migrate()
            labels.ingest(store, Path(tmp) / "corpus")
            yield store
        finally:
            store.close()


@dataclass(frozen=True, slots=True)
class Ranking:
    """The ranking rules measured: BM25 with session evidence (weight 0: off) and function-word removal."""

    bm25: Bm25 = Bm25()
    function_words: bool = False  # True: keep them (the query's plain terms)


def _lexical(
    store: Store, q: LabeledQuery, ranking: Ranking, fuse: Fuser | None = None
) -> list[tuple[int, int]]:
    parsed = parse_query(q.query)
    query = SearchQuery.from_query(parsed, q.event_types, CUTOFF)
    if ranking.function_words:  # kept: ranked by every term and its forms
        every = parsed.every_term
        query = replace(query, terms=every, forms=tuple(related_forms(every, exclude=FUNCTION_WORDS)))
    page = search(store, query, ranking.bm25, 240, fuse=fuse)
    return [(h.event.key, h.event.seq) for h in page.hits]


def _vector(store: Store, q: LabeledQuery, embedder: Embedder) -> list[tuple[int, int]]:
    types = [t for t in q.event_types if t in VECTOR_TYPES]
    if not types:
        return []
    return [(k, s) for k, s, _ in nearest(store, embedder.query(q.query), types=types, limit=CUTOFF)]


def _rank(hits: list[tuple[int, int]], answers: frozenset[EventRef]) -> int | None:
    """The 1-based rank of the first hit that is one of the answers (None: none among the hits)."""
    return next((i for i, hit in enumerate(hits, 1) if hit in answers), None)


def evaluate(
    store: Store,
    embedder: Embedder | None,
    settings: SemanticSettings,
    ranking: Ranking = Ranking(),
    labels: RelevanceSet = CURRENT,
) -> Outcome:
    """Embed the corpus (when a model is given) and rank every query of the set by each available method."""
    queries = labels.load()
    answers = labels.answers(store, queries)
    out = Outcome(queries)
    methods: list[str] = ["lexical"]
    cached = None
    if embedder is not None:
        started = time.perf_counter()
        out.embedded = vectorize_pending(store, embedder, batch=16)
        out.embed_seconds = time.perf_counter() - started
        cached = _CachedQueries(embedder)
        methods += ["vector", "hybrid"]
    for method in methods:
        out.ranks[method] = {}
        out.latency_ms[method] = []
        for q in queries:
            started = time.perf_counter()
            if method == "lexical":
                hits = _lexical(store, q, ranking)
            elif method == "vector":
                assert cached is not None
                hits = _vector(store, q, cached)
            else:
                assert embedder is not None
                # the raw embedder: the latency measured includes embedding the query, as in serving
                fuser = Hybrid(embedder, settings).fuser(parse_query(q.query), q.event_types)
                hits = _lexical(store, q, ranking, fuser)
                found = fuser.meaning_only if fuser is not None else {}
                out.meaning_only += [
                    (q.id, sim, ref in answers[q.id]) for ref, sim in found.items() if ref in hits
                ]
            out.latency_ms[method].append((time.perf_counter() - started) * 1000)
            out.ranks[method][q.id] = _rank(hits, answers[q.id])
    return out
