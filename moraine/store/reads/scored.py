"""The rows rankings pass between them: an event, by session key and seq, with its score in one ranking.

BM25 (``store/reads/search.py``), the nearest vectors (``store/reads/vectors.py``, where the score is the cosine
similarity) and the fusion of both (``semantic/fusion.py``, ``semantic/hybrid.py``) all hand on ``Scored`` rows,
best first; ``Dated`` adds the event's timestamp, which breaks score ties in the contract's order.
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

__all__ = ["Dated", "Scored"]


class Scored(NamedTuple):
    """An event (``key``: its session key, ``seq``: its place in the session) and its score in one ranking."""

    key: int
    seq: int
    score: float

    @property
    def ref(self) -> tuple[int, int]:
        """The event's (session key, seq)."""
        return self.key, self.seq


class Dated(NamedTuple):
    """A ``Scored`` row with the event's timestamp (None when the source recorded none)."""

    key: int
    seq: int
    timestamp: datetime | None
    score: float

    def scored(self) -> Scored:
        """The row without its timestamp."""
        return Scored(self.key, self.seq, self.score)
