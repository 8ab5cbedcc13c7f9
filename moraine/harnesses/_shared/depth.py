"""Guard against records nested so deeply that rendering them (``json.dumps``, text extraction) would recurse out.

Real trace records nest a few dozen levels at most; the JSON reader accepts up to Python's recursion limit.
"""

from __future__ import annotations

from typing import Any

from moraine.ingest.model import IngestError

__all__ = ["MAX_DEPTH", "depth_error"]

MAX_DEPTH = 128


def depth_error(value: Any, limit: int = MAX_DEPTH) -> IngestError | None:
    """Return an ingest error when ``value`` nests containers deeper than ``limit``, else None (iterative walk, one
    level at a time: the containers at each depth gathered by a comprehension)."""
    level = [value]
    depth = 1
    while level:
        if depth > limit:
            return IngestError("json_too_deep", f"record nests deeper than {limit} levels; skipped")
        below: list[Any] = []
        for item in level:
            if isinstance(item, dict):
                below += [child for child in item.values() if isinstance(child, dict | list)]
            elif isinstance(item, list):
                below += [child for child in item if isinstance(child, dict | list)]
        level = below
        depth += 1
    return None
