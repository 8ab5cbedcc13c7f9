"""Run a harness's reader and adapter over fixture files as ingest would, for the harness unit tests.

Every runner round-trips the stream state through JSON between records, as a checkpoint would:
``normalized`` reads a file with the reader a harness's location declares (a given ``state`` is updated in place, to
read a changed file again as a watcher does); ``emitted`` with a reader named explicitly; ``normalize_file`` feeds an
adapter instance (JSONL unless told) from an offset and returns where to resume; ``read_items`` and ``normalize``
split the reader's pass from the adapter's; ``normalize_data`` feeds raw JSON values. ``events``, ``errors`` and
``responses`` pick out what the tests look at.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from moraine.harness_api.adapter import Adapter, StreamContext
from moraine.harnesses.registry import harness as registered
from moraine.ingest.adapters import adapter_for, reader_for
from moraine.harnesses._shared.jsonl import JsonlReader
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, RawRecord, SessionInfo
from moraine.harness_api.reader import Reader

__all__ = [
    "assert_normalizes_safely",
    "assert_reported_then_read",
    "emitted",
    "errors",
    "events",
    "normalize",
    "normalize_data",
    "normalize_file",
    "normalized",
    "read_cleanly",
    "read_items",
    "responses",
]


def _feed(adapter: Adapter, ctx: StreamContext, records: Iterable[RawRecord | IngestError]) -> list[Emitted]:
    """Return what ``adapter`` emits for ``records`` (errors passed through), the state round-tripped after each."""
    out: list[Emitted] = []
    for record in records:
        if isinstance(record, IngestError):
            out.append(record)
            continue
        out.extend(adapter.normalize(record, ctx))
        ctx.state = json.loads(json.dumps(ctx.state))
    return out


def read_items(reader: Reader, path: Path, offset: int = 0) -> tuple[list[RawRecord | IngestError], int]:
    """Return what ``reader`` yields for ``path`` after ``offset`` (records and errors, in order) and where it ended."""
    items: list[RawRecord | IngestError] = []
    end = offset
    for item in reader.read(path, offset, 0):
        if item.error is not None:
            items.append(item.error)
        if item.record is not None:
            items.append(item.record)
        end = item.end
    return items, end


def normalize(
    harness: str, records: list[RawRecord | IngestError], path: Path, source: str | None = None
) -> list[Emitted]:
    """Return what ``harness``'s adapter emits for ``records`` read from ``path`` (source: the harness's name)."""
    adapter = adapter_for(harness)
    assert adapter is not None, f"no adapter for {harness}"
    return _feed(adapter, StreamContext(path=path, source=source or harness), records)


def emitted(harness: str, reader: str, path: Path, source: str | None = None) -> list[Emitted]:
    """Return everything ``harness`` emits for ``path`` read by the reader named ``reader``."""
    read = reader_for(reader)
    assert read is not None, f"no reader {reader}"
    return normalize(harness, read_items(read, path)[0], path, source)


def normalize_data(harness: str, records: list[Any], path: Path) -> list[Emitted]:
    """Return what ``harness`` emits for raw records (JSON values) as if read from ``path``."""
    raw: list[RawRecord | IngestError] = [RawRecord(data, n, n) for n, data in enumerate(records, start=1)]
    return normalize(harness, raw, path)


def normalized(
    name: str,
    path: Path,
    source: str | None = None,
    state: dict[str, Any] | None = None,
    reader: Reader | None = None,
) -> list[Emitted]:
    """Return what harness ``name``'s reader and adapter make of the file ``path`` (its first location's reader,
    or that of the location of ``source``).

    ``state``: the stream state to start from, updated in place (to read a changed file again as a watcher does);
    ``reader``: a reader to use instead of a fresh one of the location's kind (one with a test clock).
    """
    declared = registered(name)
    assert declared is not None, f"harness {name} is not registered"
    location = next(loc for loc in declared.locations if source in (None, loc.source))
    reader = reader or reader_for(location.reader)
    adapter = adapter_for(name)
    assert reader is not None and adapter is not None
    ctx = StreamContext(path=path, source=location.source, state=dict(state or {}))
    out = _feed(adapter, ctx, read_items(reader, path)[0])
    if state is not None:
        state.clear()
        state.update(ctx.state)
    return out


def normalize_file(
    adapter: Adapter,
    path: Path,
    ctx: StreamContext | None = None,
    reader: Reader | None = None,
    offset: int = 0,
) -> tuple[list[Emitted], int]:
    """Return what ``adapter`` makes of ``path``'s records from ``offset`` (JSONL unless ``reader`` says), and
    the position to resume from; ``ctx`` (kept across calls to resume a stream) defaults to a fresh one."""
    items, end = read_items(reader or JsonlReader(), path, offset)
    return _feed(adapter, ctx if ctx is not None else StreamContext(path, "test"), items), end


def events(items: Iterable[Emitted], type_: EventType | None = None, **match: Any) -> list[Event]:
    """Return the events among ``items`` of type ``type_`` (when given) whose fields equal ``match``."""
    return [
        item
        for item in items
        if isinstance(item, Event)
        and (type_ is None or item.type is type_)
        and all(getattr(item, key) == value for key, value in match.items())
    ]


def errors(items: Iterable[Emitted]) -> list[IngestError]:
    """Return the ingest errors among ``items``."""
    return [item for item in items if isinstance(item, IngestError)]


def responses(items: Iterable[Emitted]) -> list[tuple[str | None, str | None, bool | None]]:
    """Return ``(tool name, call id, tool error)`` of every tool response among ``items``, in order."""
    return [(e.tool_name, e.tool_call_id, e.tool_error) for e in events(items, EventType.TOOL_RESPONSE)]


def read_cleanly(name: str, path: Path, source: str | None = None) -> tuple[SessionInfo, list[Event]]:
    """Return the first session metadata and the events of a file that must read without an ingest error."""
    items = normalized(name, path, source)
    assert not errors(items), errors(items)
    return next(item for item in items if isinstance(item, SessionInfo)), events(items)


def assert_reported_then_read(items: list[Emitted], texts: list[str], *reasons: str) -> None:
    """Assert that ``items`` report exactly ``reasons`` (in order) and that their events' texts are ``texts``."""
    assert [i.reason for i in errors(items)] == list(reasons)
    assert [e.text for e in events(items)] == texts


def assert_normalizes_safely(adapter: Adapter, ctx: StreamContext, records: list[Any]) -> None:
    """Assert that ``adapter`` turns any JSON values into well-typed items without raising (property tests)."""
    for line_no, data in enumerate(records, start=1):
        for item in adapter.normalize(RawRecord(data=data, line_no=line_no, offset=0), ctx):
            assert isinstance(item, Event | SessionInfo | IngestError)
            if isinstance(item, Event):
                assert isinstance(item.session, str) and isinstance(item.text, str)
        ctx.state = json.loads(json.dumps(ctx.state))
