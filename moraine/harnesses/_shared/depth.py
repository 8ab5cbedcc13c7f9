"""Guard against records nested so deeply that rendering them (``json.dumps``, text extraction) would recurse out.

Real trace records nest a few dozen levels at most; the JSON reader accepts up to Python's recursion limit.
"""

from __future__ import annotations

from typing import Any

from moraine.ingest.model import IngestError

__all__ = ["MAX_DEPTH", "depth_error"]

MAX_DEPTH = 128


def depth_error(value: Any, limit: int = MAX_DEPTH) -> IngestError | None:
    """Return an ingest error when ``value`` nests containers deeper than ``limit``, else None (iterative walk)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return IngestError("json_too_deep", f"record nests deeper than {limit} levels; skipped")
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values() if isinstance(child, dict | list))
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item if isinstance(child, dict | list))
    return None
