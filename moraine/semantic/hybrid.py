"""Hybrid ranking: the settings (``[semantic]`` in config.toml), the process-wide ranker, and the search hook.

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

``activate`` installs the ranker for this process (the daemon does it at start); ``fuser_for`` returns the search
hook for one request, or None when the search stays lexical.
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
from moraine.scope.floor import floor_condition
from moraine.search.query import ParsedQuery
from moraine.semantic.context import in_context
from moraine.semantic.embedder import Embedder
from moraine.semantic.fusion import Candidate, fuse
from moraine.semantic.vectorizer import VECTOR_TYPES
from moraine.store.reads.vectors import NEIGHBOURHOOD, buckets_around, nearest, similarities_in
from moraine.store.client import Store
from moraine.store.reads.events import event_types
from moraine.store.reads.search import SearchQuery

__all__ = [
    "Fuser",
    "Hybrid",
    "SemanticSettings",
    "activate",
    "active",
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
        self.query_text = query_text
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
        extra = floor_condition(store, query.floor) if query.floor is not None else None
        vector = self.hybrid.embedder.query(self.query_text)
        found = nearest(
            store, vector,
            types=[t for t in query.types if t in VECTOR_TYPES], limit=self.depth,
            harness=query.harness, source=query.source, session_key=query.session_key, turn_seq=query.turn_seq,
            extra=extra,
        )  # fmt: skip
        side = _VectorSide(vector, found)
        if self.hybrid.settings.context > 0:
            side.read_around(store, [(key, seq) for key, seq, _ in found])
        return side

    def __call__(
        self, store: Store, query: SearchQuery, lexical: list[tuple[int, int, float]]
    ) -> list[tuple[int, int, float]]:
        """Return up to ``query.limit + 1`` (session key, seq, fused score), best first."""
        future, self._vector_side = self._vector_side, None
        side = future.result() if future is not None else self._vector_candidates(store, query)
        kinds = (
            event_types(store, [(r[0], r[1]) for r in lexical])
            if set(query.types) - set(VECTOR_TYPES)
            else {}
        )
        candidates = [
            Candidate(key, seq, score, kinds.get((key, seq), VECTOR_TYPES[0]) in VECTOR_TYPES)
            for key, seq, score in lexical
        ]
        vector = side.nearest
        if self.hybrid.settings.context > 0:
            # Over the nearest vectors (their neighbourhoods were read beside BM25) and the best vectorized lexical
            # candidates (theirs are read now, after BM25: few, since each read costs granules of vectors).
            best_lexical = [(c.key, c.seq) for c in candidates if c.vectorized][:CONTEXT_LEXICAL]
            refs = {(key, seq) for key, seq, _ in vector} | set(best_lexical)
            side.read_around(store, best_lexical)
            scored = in_context(refs, side.similarities, self.hybrid.settings.context, NEIGHBOURHOOD)
            ranked = sorted(scored.items(), key=lambda item: (-item[1], item[0]))[: self.depth]
            vector = [(key, seq, round(sim, 6)) for (key, seq), sim in ranked]
        return self._kept(candidates, vector, query.limit + 1)

    def _kept(
        self, candidates: list[Candidate], vector: list[tuple[int, int, float]], limit: int
    ) -> list[tuple[int, int, float]]:
        """Fuse, then drop the meaning-only hits under the floor (scored over every candidate, so the lexical
        hits' scores do not depend on the floor) and remember the ones kept."""
        lexical = {(c.key, c.seq) for c in candidates}
        similarity = {(key, seq): sim for key, seq, sim in vector}
        floor = self.hybrid.settings.meaning_floor
        fused = fuse(candidates, vector, len(lexical) + len(similarity), self.hybrid.settings.vector_weight)
        kept = [hit for hit in fused if (hit[0], hit[1]) in lexical or similarity[(hit[0], hit[1])] >= floor]
        kept = kept[:limit]
        self.meaning_only = {
            (key, seq): similarity[(key, seq)] for key, seq, _ in kept if (key, seq) not in lexical
        }
        return kept


class _VectorSide:
    """The query's vector, its nearest (session key, seq, similarity), and the similarities read around refs."""

    def __init__(self, vector: list[float], nearest: list[tuple[int, int, float]]) -> None:
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


_active: Hybrid | None = None


def activate(hybrid: Hybrid | None) -> None:
    """Install (or with None, remove) this process's hybrid ranker."""
    global _active
    _active = hybrid


def active() -> Hybrid | None:
    """Return this process's hybrid ranker, if any."""
    return _active


def fuser_for(query: ParsedQuery, types: Sequence[str]) -> Fuser | None:
    """Return the search hook of this process for a request (None: lexical only)."""
    return None if _active is None else _active.fuser(query, types)
