"""Ranking metrics over the labeled set: MRR@10, recall@1 and recall@10, overall and per category."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Scores", "score"]

CUTOFF = 10


@dataclass(frozen=True, slots=True)
class Scores:
    queries: int
    mrr10: float
    recall1: float
    recall10: float


def score(ranks: Iterable[int | None]) -> Scores:
    """Score 1-based ranks of the answer (None: not in the results)."""
    values = list(ranks)
    n = len(values)
    if n == 0:
        return Scores(0, 0.0, 0.0, 0.0)
    rr = [1.0 / r if r is not None and r <= CUTOFF else 0.0 for r in values]
    return Scores(
        n,
        sum(rr) / n,
        sum(1 for r in values if r == 1) / n,
        sum(1 for r in values if r is not None and r <= CUTOFF) / n,
    )
