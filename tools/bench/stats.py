"""Latency samples and their percentiles."""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Latency", "percentile"]


def percentile(samples: list[float], q: float) -> float:
    """Return the ``q``-th percentile (0..100) by linear interpolation between closest ranks."""
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    rank = (len(ordered) - 1) * q / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


@dataclass(frozen=True, slots=True)
class Latency:
    """Percentiles of one case, in milliseconds."""

    n: int
    p50: float
    p95: float
    p99: float
    max: float

    @classmethod
    def of(cls, seconds: list[float]) -> Latency:
        ms = [s * 1000 for s in seconds]
        return cls(len(ms), percentile(ms, 50), percentile(ms, 95), percentile(ms, 99), max(ms))

    def to_json(self) -> dict[str, float]:
        return {
            "n": self.n,
            "p50_ms": round(self.p50, 2),
            "p95_ms": round(self.p95, 2),
            "p99_ms": round(self.p99, 2),
            "max_ms": round(self.max, 2),
        }
