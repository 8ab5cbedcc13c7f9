"""Reasonix: chat-message transcripts with flat tool calls, and the .meta sidecar read again when it changes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.harnesses.home import HARNESS_TESTS
from tests.harnesses.run import normalized, read_cleanly, responses

from moraine.harness_api.model import EventType, SessionInfo

ROOT = HARNESS_TESTS / "reasonix/home/.reasonix"
TRANSCRIPT = next((ROOT / "projects").rglob("*.jsonl"))
SUBAGENT = next((ROOT / "sessions/subagents").glob("*.jsonl"))


def test_flat_tool_calls_are_parsed_and_linked_and_the_last_message_is_the_answer() -> None:
    info, events = read_cleanly("reasonix", TRANSCRIPT)
    assert info.session == "20261101-soil-4f2a" and info.model == "deepseek-v4-pro"
    assert info.title == "Clamp soil moisture readings"
    assert [e.type for e in events[:3]] == [EventType.SYSTEM, EventType.USER_INPUT, EventType.REASONING]
    assert events[3].arguments == {"path": "/home/dev/soilprobe/src/log.py"}
    assert responses(events) == [("read_file", "call_01", None), ("write_file", "call_02", None)] + [
        ("run_command", "call_03", None)
    ]
    assert [e.text for e in events if e.is_final_answer] == [
        "Readings are now clamped to 0-100% before logging; the tests pass."
    ]
    assert {e.provenance["timestamp_source"] for e in events} == {"meta_updated_at"}


def test_without_a_sidecar_lines_take_the_file_time() -> None:
    items = normalized("reasonix", SUBAGENT)
    assert not any(isinstance(i, SessionInfo) for i in items)
    events = [i for i in items if not isinstance(i, SessionInfo)]
    assert {e.provenance["timestamp_source"] for e in events} == {"file_mtime"}
    assert events[-1].is_final_answer and events[0].timestamp is not None


def test_a_changed_sidecar_is_read_again(tmp_path: Path) -> None:
    transcript = tmp_path / TRANSCRIPT.name
    shutil.copy(TRANSCRIPT, transcript)
    meta = Path(f"{transcript}.meta")
    meta.write_text(json.dumps({"topic_title": "First title"}), encoding="utf-8")
    state: dict = {}
    first = normalized("reasonix", transcript, state=state)
    meta.write_text(json.dumps({"topic_title": "Renamed later", "workspace_root": "/w"}), encoding="utf-8")
    again = normalized("reasonix", transcript, state=state)
    titles = [[i.title for i in items if isinstance(i, SessionInfo)] for items in (first, again)]
    assert titles == [["First title"], ["Renamed later"]]
