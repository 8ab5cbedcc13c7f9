"""Read a trace file through a reader and an adapter as the pipeline would (checkpoint round trips included)."""

from __future__ import annotations

import json
from pathlib import Path

from moraine.harnesses._shared.base import Adapter, StreamContext
from moraine.ingest.jsonl import JsonlReader
from moraine.ingest.model import Emitted, Event
from moraine.ingest.reader import Reader

__all__ = ["events", "normalize_file"]


def normalize_file(
    adapter: Adapter,
    path: Path,
    ctx: StreamContext | None = None,
    reader: Reader | None = None,
    offset: int = 0,
) -> tuple[list[Emitted], int]:
    """Return what ``adapter`` makes of ``path``'s records from ``offset`` (JSONL unless ``reader`` says), and
    the position to resume from; ``ctx`` (kept across calls to resume a stream) defaults to a fresh one."""
    ctx = ctx if ctx is not None else StreamContext(path, "test")
    out: list[Emitted] = []
    end = offset
    for item in (reader or JsonlReader()).read(path, offset, 0):
        if item.error is not None:
            out.append(item.error)
        if item.record is not None:
            out.extend(adapter.normalize(item.record, ctx))
        ctx.state = json.loads(json.dumps(ctx.state))  # a checkpoint round trip
        end = item.end
    return out, end


def events(items: list[Emitted]) -> list[Event]:
    """Return the events among ``items``."""
    return [item for item in items if isinstance(item, Event)]
