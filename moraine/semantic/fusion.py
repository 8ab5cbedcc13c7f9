"""Fusion of the BM25 and vector candidate lists by their scores.

``score(d) = (lexical(d) / best lexical + w * similarity(d)) / (1 + w)``, where ``similarity`` is the cosine
similarity rescaled over the vector candidates (the least similar 0, the most similar 1) and a candidate missing
from a list gets 0 from it. Scores, not ranks: a lexical winner far ahead of the rest stays ahead of an event that
is merely similar, while lexical candidates close to each other are reordered by meaning. (Reciprocal rank fusion,
used before, threw those gaps away: on LoCoMo's dev half it put the right session first less often than BM25 alone.)
Event types without vectors (tool calls and outputs, reasoning) take their lexical part for both, so mixing them
with fused types does not demote them. A tiny lexical term breaks ties (A first lexically, B first by vector: A
wins), and scores stay in [0, 1].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from moraine.ranking import FUSION_TIE
from moraine.store.reads.scored import Scored

__all__ = ["Candidate", "fuse"]

_TIE = FUSION_TIE


@dataclass(frozen=True, slots=True)
class Candidate:
    key: int
    seq: int
    score: float  # its lexical score
    vectorized: bool  # its type has vectors (so a missing vector means "not similar")


def fuse(
    lexical: Sequence[Candidate],
    vector: Sequence[Scored],
    limit: int,
    vector_weight: float,
) -> list[Scored]:
    """Return up to ``limit`` events by fused score, best first; ``vector``: events scored by similarity."""
    best = max((c.score for c in lexical), default=0.0) or 1.0
    low = min((v.score for v in vector), default=0.0)
    span = max((v.score for v in vector), default=0.0) - low
    similarity: dict[tuple[int, int], float] = {}
    for v in vector:
        similarity.setdefault(v.ref, (v.score - low) / span if span > 0 else 1.0)
    lexical_part: dict[tuple[int, int], float] = {}
    lex_rank: dict[tuple[int, int], int] = {}
    for rank, c in enumerate(lexical):
        ref = (c.key, c.seq)
        lex_rank.setdefault(ref, rank)
        lexical_part.setdefault(ref, c.score / best)
        if not c.vectorized:
            similarity[ref] = lexical_part[ref]
    scores = {
        ref: round(
            (lexical_part.get(ref, 0.0) * (1 + _TIE) + vector_weight * similarity.get(ref, 0.0))
            / (1 + vector_weight + _TIE),
            12,
        )
        for ref in lexical_part.keys() | similarity.keys()
    }
    ranked = sorted(scores.items(), key=lambda item: (-item[1], lex_rank.get(item[0], 1 << 30), item[0]))
    return [Scored(key, seq, score) for (key, seq), score in ranked[:limit]]
