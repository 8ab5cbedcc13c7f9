"""The file-touch hook: ``moraine.attention.extract.extract_touches(event, ctx)`` when that module exists.

Each returned item is a mapping of ``touches`` column -> value; columns it leaves out that ``TouchContext`` knows
(session_key, seq, turn_seq, harness, source, timestamp, stream_id, source_offset) are filled in here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from moraine.ingest.model import Event

__all__ = ["TouchContext", "extract_touches"]


@dataclass(frozen=True, slots=True)
class TouchContext:
    session_key: int
    seq: int
    turn_seq: int
    harness: str
    source: str
    timestamp: datetime | None
    cwd: str | None
    stream_id: int
    source_offset: int


_Extractor = Callable[[Event, TouchContext], list[Mapping[str, Any]]]
_loaded: list[_Extractor | None] = []


def _extractor() -> _Extractor | None:
    if not _loaded:
        try:
            module = importlib.import_module("moraine.attention.extract")
        except ModuleNotFoundError as exc:
            if exc.name not in ("moraine.attention", "moraine.attention.extract"):
                raise
            _loaded.append(None)
        else:
            _loaded.append(getattr(module, "extract_touches", None))
    return _loaded[0]


def extract_touches(event: Event, ctx: TouchContext) -> list[dict[str, Any]]:
    """Return the touches rows of one (redacted) tool call; none when file attention is not installed."""
    extractor = _extractor()
    if extractor is None:
        return []
    base = {
        "session_key": ctx.session_key,
        "seq": ctx.seq,
        "turn_seq": ctx.turn_seq,
        "harness": ctx.harness,
        "source": ctx.source,
        "timestamp": ctx.timestamp,
        "stream_id": ctx.stream_id,
        "source_offset": ctx.source_offset,
    }
    return [{**base, **dict(item)} for item in extractor(event, ctx)]
