"""Token usage as a trace records it: a mapping of counts -> ``TokenUsage`` (the harness names its own keys)."""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.fields import as_dict, as_int
from moraine.ingest.model import TokenUsage

__all__ = ["read_usage"]


def read_usage(
    raw: Any,
    *,
    input: str,
    output: str,
    cache_read: str | None = None,
    cache_write: str | None = None,
    reasoning: str | None = None,
) -> TokenUsage | None:
    """Return the counts of ``raw`` under the given keys, or None when it is not a mapping or holds none of them.

    A count that is not a non-negative integer is left out (None), never an error: usage is bookkeeping.
    """
    counts = as_dict(raw)

    def count(key: str | None) -> int | None:
        value = as_int(counts.get(key)) if key is not None else None
        return value if value is not None and value >= 0 else None

    usage = TokenUsage(count(input), count(output), count(cache_read), count(cache_write), count(reasoning))
    return None if usage == TokenUsage() else usage
