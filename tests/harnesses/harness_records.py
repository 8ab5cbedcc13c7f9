"""Run a registered harness over one of its fixture files: its declared reader, then its adapter, as ingest would.

``normalized`` returns everything the adapter emitted (events, session metadata, ingest errors) plus the reader's
own errors, the stream state round-tripped through JSON between records as a checkpoint would.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from moraine.ingest.adapters import adapter_for, reader_for
from moraine.harnesses._shared.base import StreamContext
from moraine.ingest.model import Emitted, Event, EventType, IngestError, RawRecord

__all__ = ["assert_reported_then_read", "events_of", "normalize_data", "normalized", "sqlite_from_dump"]


def normalized(harness: str, reader: str, path: Path, source: str | None = None) -> list[Emitted]:
    """Return what harness ``harness`` emits for the file ``path`` read by reader ``reader``."""
    adapter = adapter_for(harness)
    read = reader_for(reader)
    assert adapter is not None and read is not None
    ctx = StreamContext(path=path, source=source or harness)
    out: list[Emitted] = []
    for item in read.read(path, 0, 0):
        if item.error is not None:
            out.append(item.error)
        if item.record is not None:
            out.extend(adapter.normalize(item.record, ctx))
            ctx.state = json.loads(json.dumps(ctx.state))
    return out


def normalize_data(harness: str, records: list[Any], path: Path) -> list[Emitted]:
    """Return what harness ``harness`` emits for raw records (JSON values) as if read from ``path``."""
    adapter = adapter_for(harness)
    assert adapter is not None
    ctx = StreamContext(path=path, source=harness)
    out: list[Emitted] = []
    for line_no, data in enumerate(records, start=1):
        out.extend(adapter.normalize(RawRecord(data, line_no, line_no), ctx))
    return out


def events_of(items: list[Emitted], type_: EventType | None = None) -> list[Event]:
    """Return the events among ``items`` (of type ``type_`` when given)."""
    return [e for e in items if isinstance(e, Event) and (type_ is None or e.type is type_)]


def sqlite_from_dump(dump: Path, database: Path) -> Path:
    """Build ``database`` from a ``.sql`` dump and return it."""
    connection = sqlite3.connect(database)
    try:
        connection.executescript(dump.read_text(encoding="utf-8"))
        connection.commit()
    finally:
        connection.close()
    return database


def assert_reported_then_read(items: list[Emitted], texts: list[str], *reasons: str) -> None:
    """Assert that ``items`` report exactly ``reasons`` (in order) and that their events' texts are ``texts``."""
    assert [i.reason for i in items if isinstance(i, IngestError)] == list(reasons)
    assert [e.text for e in events_of(items)] == texts
