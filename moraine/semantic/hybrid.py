"""Hybrid ranking: the settings (``[semantic]`` in config.toml), the ranker, its holder, and the search hook.

    [semantic]
    enabled = true      # hybrid ranking when the model package is installed (false: lexical only, no vectorizer)
    threads = 1         # CPU threads of the embedder (background vectorizer and query embedding)
    vector_weight = 0.5 # weight of the vector similarity in the fusion (the lexical score weighs 1)
    depth = 50          # candidates taken from each ranker before fusion
    context = 0.3       # weight of a message's neighbours in its similarity (0: each message alone)
    min_words = 2       # fuse only queries with at least this many plain words (identifiers stay lexical)
    meaning_floor = 0.0 # a hit holding none of the query's words needs this similarity in context (see below)

A hit found by the vector side alone (none of the query's words in it) is a meaning match: it is kept only when its
similarity in context reaches ``meaning_floor`` (``MEANING_FLOOR``, measured on the relevance set) and the Fuser
reports it (``meaning_only``) so that the hit is marked as one.

A ``SemanticRanker`` is created empty with the handlers' ``Deps`` and filled by the semantic service once the model
has loaded (the daemon answers lexically meanwhile); ``fuser_for`` returns the search hook of a ranker for one
request, or None when the search stays lexical.
"""

from __future__ import annotations

import contextvars
from concurrent.futures import Future, ThreadPoolExecutor
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from moraine.ranking import (
    CONTEXT_LEXICAL,
    CONTEXT_WEIGHT,
    FUSION_DEPTH,
    FUSION_MIN_WORDS,
    MEANING_FLOOR,
    VECTOR_WEIGHT,
)
from moraine.errors import ConfigError
from moraine.store.reads.floor import project_condition
from moraine.terms.query import ParsedQuery
from moraine.semantic.context import in_context
from moraine.semantic.embedder import MAX_QUERY_CHARS, Embedder
from moraine.semantic.fusion import Candidate, fuse
from moraine.semantic.vectorizer import VECTOR_TYPES
from moraine.store.reads.vectors import NEIGHBOURHOOD, buckets_around, nearest, similarities_in
from moraine.store.client import Store
from moraine.store.reads.events import event_types
from moraine.store.reads.scored import Scored
from moraine.store.reads.search import SearchQuery

__all__ = [
    "Fuser",
    "Hybrid",
    "SemanticRanker",
    "SemanticSettings",
    "fuser_for",
    "settings_from",
]

_EMBEDDING = ThreadPoolExecutor(max_workers=2, thread_name_prefix="moraine-query-embed")


@dataclass(frozen=True, slots=True)
class SemanticSettings:
    enabled: bool = True
    threads: int = 1
    vector_weight: float = VECTOR_WEIGHT
    depth: int = FUSION_DEPTH
    min_words: int = FUSION_MIN_WORDS
    context: float = CONTEXT_WEIGHT
    meaning_floor: float = MEANING_FLOOR


def settings_from(extra: Mapping[str, Any]) -> SemanticSettings:
    """Read the ``[semantic]`` table of the configuration (``Config.extra``); raise ConfigError on bad values."""
    raw = extra.get("semantic", {})
    if not isinstance(raw, dict):
        raise ConfigError("[semantic] must be a table")
    defaults = SemanticSettings()
    if "rrf_k" in raw:
        raise ConfigError(
            "[semantic] rrf_k is no longer read (hybrid ranking fuses scores, not ranks): remove it"
        )
    unknown = set(raw) - {
        "enabled",
        "threads",
        "vector_weight",
        "depth",
        "min_words",
        "context",
        "meaning_floor",
    }
    if unknown:
        raise ConfigError(f"[semantic] has unknown keys: {', '.join(sorted(unknown))}")

    def integer(name: str, default: int, minimum: int) -> int:
        value = raw.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise ConfigError(f"[semantic] {name} must be an integer >= {minimum}, got {value!r}")
        return value

    enabled = raw.get("enabled", defaults.enabled)
    if not isinstance(enabled, bool):
        raise ConfigError(f"[semantic] enabled must be true or false, got {enabled!r}")

    def weight(name: str, default: float) -> float:
        value = raw.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise ConfigError(f"[semantic] {name} must be a number >= 0, got {value!r}")
        return float(value)

    return SemanticSettings(
        enabled=enabled,
        vector_weight=weight("vector_weight", defaults.vector_weight),
        context=weight("context", defaults.context),
        meaning_floor=weight("meaning_floor", defaults.meaning_floor),
        threads=integer("threads", defaults.threads, 1),
        depth=integer("depth", defaults.depth, 1),
        min_words=integer("min_words", defaults.min_words, 0),
    )


class Fuser:
    """The search hook for one request: given the BM25 candidates, return the fused ranking."""

    def __init__(self, hybrid: Hybrid, query_text: str) -> None:
        self.hybrid = hybrid
        self.query_text = query_text[:MAX_QUERY_CHARS]  # what is embedded (``MAX_QUERY_CHARS``: its cost)
        self.depth = hybrid.settings.depth
        self._vector_side: Future[_VectorSide] | None = None
        # The hits of the last call found by meaning alone (no query word in them) -> their similarity in context.
        self.meaning_only: dict[tuple[int, int], float] = {}

    def prefetch(self, store: Store, query: SearchQuery) -> None:
        """Start the vector side now (embed the query, its nearest vectors, their neighbourhoods) so that it runs
        while BM25 does.

        The job runs in this call's context, so its queries carry the call's cancellation tag.
        """
        context = contextvars.copy_context()
        self._vector_side = _EMBEDDING.submit(context.run, self._vector_candidates, store, query)

    def _vector_candidates(self, store: Store, query: SearchQuery) -> _VectorSide:
        # A project-only server's scope applies to vectors too.
        extra = project_condition(store, query.floor.project_id) if query.floor is not None else None
        vector = self.hybrid.embedder.query(self.query_text)
        found = nearest(
            store, vector,
            types=[t for t in query.types if t in VECTOR_TYPES], limit=self.depth,
            harness=query.harness, source=query.source, session_key=query.session_key, turn_seq=query.turn_seq,
            extra=extra,
        )  # fmt: skip
        side = _VectorSide(vector, found)
        if self.hybrid.settings.context > 0:
            side.read_around(store, [row.ref for row in found])
        return side

    def __call__(self, store: Store, query: SearchQuery, lexical: list[Scored]) -> list[Scored]:
        """Return up to ``query.limit + 1`` events by fused score, best first."""
        future, self._vector_side = self._vector_side, None
        side = future.result() if future is not None else self._vector_candidates(store, query)
        kinds = (
            event_types(store, [row.ref for row in lexical]) if set(query.types) - set(VECTOR_TYPES) else {}
        )
        candidates = [
            Candidate(row.key, row.seq, row.score, kinds.get(row.ref, VECTOR_TYPES[0]) in VECTOR_TYPES)
            for row in lexical
        ]
        vector = side.nearest
        if self.hybrid.settings.context > 0:
            # Over the nearest vectors (their neighbourhoods were read beside BM25) and the best vectorized lexical
            # candidates (theirs are read now, after BM25: few, since each read costs granules of vectors).
            best_lexical = [(c.key, c.seq) for c in candidates if c.vectorized][:CONTEXT_LEXICAL]
            refs = {row.ref for row in vector} | set(best_lexical)
            side.read_around(store, best_lexical)
            scored = in_context(refs, side.similarities, self.hybrid.settings.context, NEIGHBOURHOOD)
            ranked = sorted(scored.items(), key=lambda item: (-item[1], item[0]))[: self.depth]
            vector = [Scored(key, seq, round(sim, 6)) for (key, seq), sim in ranked]
        return self._kept(candidates, vector, query.limit + 1)

    def _kept(self, candidates: list[Candidate], vector: list[Scored], limit: int) -> list[Scored]:
        """Fuse, then drop the meaning-only hits under the floor (scored over every candidate, so the lexical
        hits' scores do not depend on the floor) and remember the ones kept."""
        lexical = {(c.key, c.seq) for c in candidates}
        similarity = {row.ref: row.score for row in vector}
        floor = self.hybrid.settings.meaning_floor
        fused = fuse(candidates, vector, len(lexical) + len(similarity), self.hybrid.settings.vector_weight)
        kept = [hit for hit in fused if hit.ref in lexical or similarity[hit.ref] >= floor]
        kept = kept[:limit]
        self.meaning_only = {hit.ref: similarity[hit.ref] for hit in kept if hit.ref not in lexical}
        return kept


class _VectorSide:
    """The query's vector, its nearest events (by similarity), and the similarities read around refs."""

    def __init__(self, vector: list[float], nearest: list[Scored]) -> None:
        self.vector = vector
        self.nearest = nearest
        self.similarities: dict[tuple[int, int], float] = {}
        self._buckets: set[tuple[int, int]] = set()

    def read_around(self, store: Store, refs: Iterable[tuple[int, int]]) -> None:
        """Read the similarities of the vectors around ``refs`` (only the neighbourhoods not read yet)."""
        missing = buckets_around(refs) - self._buckets
        if missing:
            self.similarities.update(similarities_in(store, self.vector, missing))
            self._buckets |= missing


class Hybrid:
    """The embedder plus the fusion settings of this process."""

    def __init__(self, embedder: Embedder, settings: SemanticSettings) -> None:
        self.embedder = embedder
        self.settings = settings

    def applies(self, query: ParsedQuery, types: Sequence[str]) -> bool:
        """Whether a search goes hybrid: it asks for a vectorized type and has enough plain words."""
        return any(t in VECTOR_TYPES for t in types) and query.natural_words >= self.settings.min_words

    def fuser(self, query: ParsedQuery, types: Sequence[str]) -> Fuser | None:
        """Return the hook for a search, or None when it stays lexical."""
        return Fuser(self, query.text) if self.applies(query, types) else None


class SemanticRanker:
    """The hybrid ranker of a server once its model has loaded (``current``; None until then, when semantic
    recall is off, and after shutdown).

    One holder is created with the handlers' ``Deps`` and shared by every call; the semantic service sets
    ``current`` from its background thread, and each search reads it once.
    """

    __slots__ = ("current",)

    def __init__(self, current: Hybrid | None = None) -> None:
        self.current = current


def fuser_for(hybrid: Hybrid | None, query: ParsedQuery, types: Sequence[str]) -> Fuser | None:
    """Return the search hook of ``hybrid`` for a request (None: lexical only)."""
    return None if hybrid is None else hybrid.fuser(query, types)
