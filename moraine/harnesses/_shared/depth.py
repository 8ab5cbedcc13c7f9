"""Guard against records nested so deeply that rendering them (``json.dumps``, text extraction) would recurse out.

Real trace records nest a few dozen levels at most; the JSONL reader accepts up to Python's recursion limit.
``loads`` is ``json.loads`` for whole documents and database rows: a value nested deeper than ``MAX_DEPTH`` is a
``ValueError`` saying so (the readers report it as they report any unreadable version), never a ``RecursionError``
in the reader or in an adapter walking it later.
"""

from __future__ import annotations

import json
from typing import Any

from moraine.harness_api.model import IngestError

__all__ = ["MAX_DEPTH", "depth_error", "loads", "too_deep"]

MAX_DEPTH = 128


def loads(raw: str | bytes) -> Any:
    """Return the JSON value of ``raw``.

    Raises:
        ValueError: ``raw`` is not JSON, or nests deeper than ``MAX_DEPTH`` levels.
    """
    try:
        value = json.loads(raw)
    except RecursionError:  # the parser's own limit (about 1,000 levels): deeper than ours too
        raise ValueError(f"nesting deeper than {MAX_DEPTH} levels") from None
    if too_deep(value):
        raise ValueError(f"nesting deeper than {MAX_DEPTH} levels")
    return value


def depth_error(value: Any, limit: int = MAX_DEPTH) -> IngestError | None:
    """Return an ingest error when ``value`` nests containers deeper than ``limit``, else None."""
    if too_deep(value, limit):
        return IngestError("json_too_deep", f"record nests deeper than {limit} levels; skipped")
    return None


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Return whether ``value`` nests containers deeper than ``limit`` (iterative walk, one level at a time: the
    containers at each depth gathered by a comprehension)."""
    level = [value]
    depth = 1
    while level:
        if depth > limit:
            return True
        below: list[Any] = []
        for item in level:
            if isinstance(item, dict):
                below += [child for child in item.values() if isinstance(child, dict | list)]
            elif isinstance(item, list):
                below += [child for child in item if isinstance(child, dict | list)]
        level = below
        depth += 1
    return False
