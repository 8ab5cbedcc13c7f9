"""Golden-output support for adapter tests: run an adapter over a fixture, compare with the committed expectation.

Set ``MORAINE_REGEN_GOLDENS=1`` to rewrite the expected files instead of comparing (review the diff like code):

    MORAINE_REGEN_GOLDENS=1 .venv/bin/pytest tests/harnesses
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterable, Iterator
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import Any

from moraine.harness_api.adapter import Adapter, StreamContext
from moraine.harness_api.model import Event, IngestError, RawRecord, SessionInfo

REGEN = os.environ.get("MORAINE_REGEN_GOLDENS") == "1"


def jsonl_records(path: Path) -> Iterator[RawRecord | IngestError]:
    """Yield the records of a JSONL fixture (blank lines skipped, unparsable lines as ``IngestError``)."""
    offset = 0
    with path.open("rb") as handle:
        for line_no, raw in enumerate(handle, start=1):
            start, offset = offset, offset + len(raw)
            if not raw.strip():
                continue
            try:
                yield RawRecord(data=json.loads(raw), line_no=line_no, offset=start)
            except ValueError as exc:
                yield IngestError("malformed_json", f"line {line_no}: {exc}")


def run_adapter(
    adapter: Adapter,
    records: Iterable[RawRecord | IngestError],
    path: Path,
    source: str,
    state: dict[str, Any] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Normalize every record, round-tripping the state through JSON between records as a checkpoint would."""
    ctx = StreamContext(path=path, source=source, state=dict(state or {}))
    out: list[dict[str, Any]] = []
    for record in records:
        if isinstance(record, IngestError):
            out.append({"line": None, **to_json(record)})
            continue
        for item in adapter.normalize(record, ctx):
            out.append({"line": record.line_no, **to_json(item)})
        ctx.state = json.loads(json.dumps(ctx.state))
    return out, ctx.state


def to_json(item: Event | SessionInfo | IngestError) -> dict[str, Any]:
    """Return a JSON-ready dict of one emitted item, tagged with its kind."""
    kind = {Event: "event", SessionInfo: "session_info", IngestError: "ingest_error"}[type(item)]
    fields = {f.name: _plain(getattr(item, f.name)) for f in dataclasses.fields(item)}
    if fields.get("usage", 0) is None:  # token usage is shown only where a trace records it
        del fields["usage"]
    return {"item": kind, **fields}


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def assert_golden(actual: Any, expected_path: Path) -> None:
    """Compare ``actual`` with the golden file as a whole object (or rewrite it under ``MORAINE_REGEN_GOLDENS``)."""
    rendered = json.dumps(actual, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    if REGEN:
        expected_path.parent.mkdir(parents=True, exist_ok=True)
        expected_path.write_text(rendered, encoding="utf-8")
    assert expected_path.exists(), f"missing golden {expected_path}; run with MORAINE_REGEN_GOLDENS=1"
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    assert json.loads(rendered) == expected, (
        f"golden mismatch for {expected_path.name}; regenerate with MORAINE_REGEN_GOLDENS=1"
    )


def events(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return only the events of a normalized run."""
    return [item for item in items if item["item"] == "event"]
