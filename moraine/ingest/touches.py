"""The file-touch hook of ingest: ``moraine.attention.extract.extract_touches`` plus the row columns it knows.

Each returned item is a mapping of ``touches`` column -> value; columns it leaves out that ``TouchContext`` knows
(session_key, seq, turn_seq, harness, source, timestamp, stream_id, source_offset) are filled in here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from moraine.attention import extract
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


def extract_touches(event: Event, ctx: TouchContext) -> list[dict[str, Any]]:
    """Return the touches rows of one (redacted) tool call."""
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
    return [{**base, **dict(item)} for item in extract.extract_touches(event, ctx)]
