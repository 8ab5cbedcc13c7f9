"""Reciprocal rank fusion of the BM25 and vector candidate lists.

``score(d) = 1 / (k + lexical_rank) + w / (k + vector_rank)``; a candidate missing from a list gets nothing from it.
``w`` (the vector weight, 1 by default) below 1 lets the embedding reorder close lexical candidates without
overruling a clear lexical winner.
Event types without vectors (tool calls and outputs, reasoning) take their lexical term twice, so mixing them with
fused types does not demote them. A tiny lexical term breaks ties (A first lexically, B first by vector: A wins).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Candidate", "fuse"]

_TIE = 1e-6


@dataclass(frozen=True, slots=True)
class Candidate:
    key: int
    seq: int
    vectorized: bool  # its type has vectors (so a missing vector rank means "not similar")


def fuse(
    lexical: Sequence[Candidate],
    vector: Sequence[tuple[int, int]],
    k: float,
    limit: int,
    vector_weight: float = 1.0,
) -> list[tuple[int, int, float]]:
    """Return up to ``limit`` (session key, seq, fused score), best first."""
    lex_rank = {(c.key, c.seq): rank for rank, c in enumerate(lexical, start=1)}
    lex_only = {(c.key, c.seq) for c in lexical if not c.vectorized}
    vec_rank: dict[tuple[int, int], int] = {}
    for rank, ref in enumerate(vector, start=1):
        vec_rank.setdefault(ref, rank)
    scores: dict[tuple[int, int], float] = {}
    for ref in lex_rank.keys() | vec_rank.keys():
        lexical_part = 1.0 / (k + lex_rank[ref]) if ref in lex_rank else 0.0
        if ref in lex_only:
            vector_part = lexical_part
        else:
            vector_part = vector_weight / (k + vec_rank[ref]) if ref in vec_rank else 0.0
        scores[ref] = round(lexical_part + vector_part + _TIE * lexical_part, 12)
    ranked = sorted(scores.items(), key=lambda item: (-item[1], lex_rank.get(item[0], 1 << 30), item[0]))
    return [(key, seq, score) for (key, seq), score in ranked[:limit]]
