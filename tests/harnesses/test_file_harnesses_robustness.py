"""Bad input to every file-format harness below: reported as ingest errors, never a crash.

Each row is a record a harness cannot read (not an object, a record of its kind missing what it needs, a tag it
does not know); the adapter must return an ``IngestError`` with the given reason and nothing it invented. Every
adapter also survives a table of odd values in known places (wrong types, nulls) without raising.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from moraine.ingest.adapters import adapter_for
from moraine.harness_api.adapter import StreamContext
from moraine.harness_api.model import Event, IngestError, RawRecord

HARNESSES = [
    "openclaw", "qclaw", "forge", "deepseek-tui", "cortex-code", "deepseek-harness", "posit-assistant", "poolside",
    "reasonix", "mimocode", "piebald", "zcode", "warp", "icodemate", "commandcode", "shelley", "codebuff",
]  # fmt: skip
BAD: list[tuple[str, Any, str]] = [
    ("openclaw", {"type": "message", "message": "not an object"}, "malformed_record"),
    (
        "forge",
        {"record": "forge_conversation", "conversation": {"id": "c"}, "context": {}},
        "malformed_record",
    ),
    (
        "forge",
        {"record": "forge_conversation", "conversation": {"id": "c"}, "context": {"messages": [7]}},
        "unknown_record",
    ),
    (
        "deepseek-tui",
        {"record": "document_message", "session": "s", "index": 0, "message": "x"},
        "malformed_record",
    ),
    ("cortex-code", {"record": "document_header", "session": {}}, "malformed_record"),
    ("deepseek-harness", {"type": "user/message", "seq": 1, "data": {}}, "malformed_record"),
    ("posit-assistant", {"record": "something_else"}, "unknown_record"),
    ("poolside", {"type": "session.input", "timestamp": "not a time"}, "timestamp_parse_error"),
    ("reasonix", {"role": "narrator", "content": "?"}, "unknown_record"),
    ("mimocode", {"record": "opencode_part", "session": {}, "part": {}}, "malformed_record"),
    ("piebald", {"record": "piebald_chat", "chat": {}, "messages": []}, "malformed_record"),
    ("zcode", {"record": "zcode_session", "session": {"id": "z"}, "messages": "many"}, "malformed_record"),
    ("warp", {"record": "warp_conversation", "conversation": {"id": "w"}}, "malformed_record"),
]
ODD: list[Any] = [
    {},
    {"type": None, "record": None},
    {"type": "message", "message": {"role": "assistant", "content": [None, 3, {"type": "toolCall"}]}},
    {
        "record": "document_message",
        "session": "s",
        "message": {"role": "assistant", "content": [{"type": "tool_use"}]},
    },
    {
        "record": "piebald_chat",
        "chat": {"id": 1},
        "messages": [None, {"parts": [None, {"type": "tool_call"}]}],
    },
    {
        "record": "zcode_session",
        "session": {"id": "z"},
        "messages": [{"data": "x", "parts": [{"type": "tool"}]}],
    },
    {
        "record": "forge_conversation",
        "conversation": {"id": "f"},
        "context": {"messages": [{"message": {"text": 5}}]},
    },
    {
        "type": "assistant/message",
        "data": {"message": {"content": "plain"}, "usage": {"inputTokens": "many"}},
    },
    {"type": "tool_call.result", "tool_call_result": {"id": 3, "is_error": "yes"}},
    {"role": "assistant", "tool_calls": [{"id": 1, "name": None, "arguments": "{not json"}]},
]


def _normalize(harness: str, data: Any, state: dict[str, Any] | None = None) -> list[Any]:
    adapter = adapter_for(harness)
    assert adapter is not None, harness
    ctx = StreamContext(
        path=Path("/nonexistent/session.jsonl"),
        source=harness,
        state={"session": "s"} if state is None else state,
    )
    return list(adapter.normalize(RawRecord(data, 1, 0), ctx))


@pytest.mark.parametrize("harness", HARNESSES)
def test_a_record_that_is_not_an_object_is_an_ingest_error(harness: str) -> None:
    items = _normalize(harness, ["not", "an", "object"])
    assert items and all(isinstance(item, IngestError) for item in items)


@pytest.mark.parametrize(("harness", "data", "reason"), BAD, ids=[f"{h}-{r}" for h, _, r in BAD])
def test_a_record_the_harness_cannot_read_is_reported_with_its_reason(
    harness: str, data: Any, reason: str
) -> None:
    items = _normalize(harness, data, {})
    assert reason in [item.reason for item in items if isinstance(item, IngestError)]
    assert not [item for item in items if isinstance(item, Event) and item.text]


@pytest.mark.parametrize("harness", HARNESSES)
def test_odd_values_in_known_places_never_raise(harness: str) -> None:
    for data in ODD:
        _normalize(harness, data, {"session": "s", "cwd": None})
