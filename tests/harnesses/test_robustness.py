"""No record can crash the other-harness adapters: arbitrary JSON and mutated fixture records yield items only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moraine.ingest.adapters import adapter_for
from moraine.harness_api.adapter import StreamContext
from moraine.harness_api.model import Event, IngestError, RawRecord, SessionInfo

FIXTURES = Path(__file__).parent  # every harness folder: its home/ and other fixture files

HARNESSES = [
    "cursor",
    "hermes",
    "kimi-cli",
    "kiro-cli",
    "nac",
    "opencode",
    "pi-coding-agent",
    "prime-agent",
    "qwen-code",
]
# Snapshot/part records as the non-JSONL readers build them, to mutate as well.
READER_RECORDS: list[dict[str, Any]] = [
    {
        "record": "cursor_composer",
        "composer_id": "c",
        "composer": {"name": "n"},
        "bubbles": [
            {
                "id": "b",
                "type": 2,
                "settled": True,
                "error": None,
                "value": {
                    "type": 2,
                    "text": "t",
                    "turnDurationMs": 1,
                    "toolFormerData": {"name": "x", "status": "error"},
                },
            }
        ],
    },
    {
        "record": "hermes_message",
        "session": {"session_id": "s"},
        "index": 0,
        "message": {
            "role": "assistant",
            "content": "c",
            "tool_calls": [{"id": "i", "function": {"name": "f"}}],
        },
    },
    {
        "record": "opencode_part",
        "session": {"id": "ses"},
        "part": {"id": "p", "data": {"type": "tool", "state": {}}},
        "message": {"data": {"role": "assistant"}},
        "last_text": True,
    },
    {
        "record": "nac_session",
        "session": {"session_id": "s"},
        "messages": [{"role": "assistant", "tool_calls": [{}]}],
        "episodes": [{"id": 1, "thread_name": "w"}],
    },
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=12), children, max_size=5),
    max_leaves=25,
)


def _fixture_records() -> list[Any]:
    records: list[Any] = list(READER_RECORDS)
    for path in sorted(FIXTURES.glob("*/**/*.jsonl")):
        if "expected" in path.parts:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                records.append(json.loads(line))
            except ValueError:
                continue
    return records


FIXTURE_RECORDS = _fixture_records()


def _mutate(value: Any, replacement: Any, path: list[int]) -> Any:
    """Replace one nested value (chosen by ``path`` indices) with ``replacement``."""
    if not path or not isinstance(value, dict | list) or not value:
        return replacement
    keys = list(value.keys()) if isinstance(value, dict) else list(range(len(value)))
    key = keys[path[0] % len(keys)]
    copy: Any = dict(value) if isinstance(value, dict) else list(value)
    copy[key] = _mutate(value[key], replacement, path[1:])
    return copy


def _run(harness: str, data: Any, tmp: Path) -> None:
    adapter = adapter_for(harness)
    assert adapter is not None
    ctx = StreamContext(path=tmp / "subagents" / "agent-x" / "wire.jsonl", source="prime-agent-subagents")
    for _ in range(2):  # twice: the state left by the first call must be usable
        items = list(adapter.normalize(RawRecord(data=data, line_no=1, offset=0), ctx))
        assert all(isinstance(item, Event | SessionInfo | IngestError) for item in items)
        json.dumps(ctx.state)


@pytest.mark.parametrize("harness", HARNESSES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=json_values)
def test_arbitrary_json_never_raises(harness: str, data: Any, tmp_path: Path) -> None:
    _run(harness, data, tmp_path)


@pytest.mark.parametrize("harness", HARNESSES)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    index=st.integers(min_value=0, max_value=10_000),
    path=st.lists(st.integers(min_value=0, max_value=50), max_size=5),
    replacement=json_values,
)
def test_mutated_fixture_records_never_raise(
    harness: str, index: int, path: list[int], replacement: Any, tmp_path: Path
) -> None:
    assert FIXTURE_RECORDS
    record = FIXTURE_RECORDS[index % len(FIXTURE_RECORDS)]
    _run(harness, _mutate(record, replacement, path), tmp_path)
