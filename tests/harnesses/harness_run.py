"""Run one harness's reader and adapter over a file, as the pipeline would, for the harness unit tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from moraine.ingest.adapters import adapter_for, reader_for
from moraine.harnesses._shared.base import StreamContext
from moraine.ingest.model import Emitted, Event, IngestError, RawRecord
from moraine.ingest.reader import Reader

__all__ = ["emitted", "events", "normalize", "read_items"]


def read_items(reader: Reader, path: Path, offset: int = 0) -> tuple[list[RawRecord | IngestError], int]:
    """Return what ``reader`` yields for ``path`` after ``offset`` (records or errors) and the position reached."""
    items: list[RawRecord | IngestError] = []
    end = offset
    for item in reader.read(path, offset, 0):
        items.append(item.record if item.record is not None else item.error)  # type: ignore[arg-type]
        end = item.end
    return items, end


def normalize(harness: str, records: list[RawRecord | IngestError], path: Path) -> list[Emitted]:
    """Return what ``harness``'s adapter emits for ``records`` (state round-tripped through JSON between them)."""
    adapter = adapter_for(harness)
    assert adapter is not None, f"no adapter for {harness}"
    ctx = StreamContext(path=path, source=harness)
    out: list[Emitted] = []
    for record in records:
        if isinstance(record, IngestError):
            out.append(record)
            continue
        out.extend(adapter.normalize(record, ctx))
        ctx.state = json.loads(json.dumps(ctx.state))
    return out


def emitted(harness: str, format: str, path: Path) -> list[Emitted]:
    """Return everything ``harness`` emits for ``path`` read by the reader named ``format``."""
    reader = reader_for(format)
    assert reader is not None, f"no reader {format}"
    return normalize(harness, read_items(reader, path)[0], path)


def events(items: list[Emitted], **match: Any) -> list[Event]:
    """Return the events among ``items`` whose fields equal ``match`` (e.g. ``type=EventType.TOOL_CALL``)."""
    return [
        item
        for item in items
        if isinstance(item, Event) and all(getattr(item, key) == value for key, value in match.items())
    ]
