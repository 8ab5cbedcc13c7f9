"""Token usage as harnesses record it: a JSON object of counts under their own key names -> ``TokenUsage``."""

from __future__ import annotations

from typing import Any

from moraine.ingest.adapters.fields import as_dict, as_int
from moraine.ingest.model import TokenUsage

__all__ = ["usage_from"]


def usage_from(
    value: Any, input: str, output: str, cache_read: str | None = None, cache_write: str | None = None
) -> TokenUsage | None:
    """Return the usage a JSON object records under the given keys; None when it records none of them."""
    counts = as_dict(value)
    keys = {"input": input, "output": output, "cache_read": cache_read, "cache_write": cache_write}
    read = {field: as_int(counts.get(key)) if key else None for field, key in keys.items()}
    if all(number is None for number in read.values()):
        return None
    return TokenUsage(**read)
