"""DeepSeek TUI: session documents read by position; content blocks become events; versions and junk reported."""

from __future__ import annotations

import json
from pathlib import Path

from tests.harnesses.home import HARNESS_TESTS
from tests.harnesses.run import errors, events, normalized, read_cleanly

from moraine.harnesses.deepseek_tui.reader import DeepSeekTuiReader
from moraine.harness_api.model import EventType

HOME = HARNESS_TESTS / "deepseek_tui/home"
SESSION = HOME / ".deepseek/sessions/5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9.json"
CODEWHALE = next((HOME / ".codewhale/sessions").glob("*.json"))


def test_blocks_become_reasoning_calls_linked_results_and_one_final_answer() -> None:
    info, events = read_cleanly("deepseek-tui", SESSION)
    assert (info.title, info.cwd, info.model) == (
        "Compass heading drift",
        "/home/dev/compass",
        "deepseek-reasoner",
    )
    assert [e.type for e in events[:3]] == [EventType.USER_INPUT, EventType.REASONING, EventType.TOOL_CALL]
    pairs = [(e.type, e.tool_name, e.tool_call_id) for e in events if e.tool_call_id]
    assert pairs == [
        (EventType.TOOL_CALL, "Read", "toolu_c1"),
        (EventType.TOOL_RESPONSE, "Read", "toolu_c1"),
        (EventType.TOOL_CALL, "Edit", "toolu_c2"),
        (EventType.TOOL_RESPONSE, "Edit", "toolu_c2"),
        (EventType.TOOL_CALL, "Bash", "toolu_c3"),
        (EventType.TOOL_RESPONSE, "Bash", "toolu_c3"),
    ]
    assert events[-2].text == "test calibrate::saves_offset ... ok" and events[-2].tool_error is False
    assert [e.text for e in events if e.is_final_answer] == [
        "The calibration offset is now saved and survives a restart."
    ]


def test_an_unknown_schema_version_is_reported_once_and_the_file_is_still_read() -> None:
    items = normalized("deepseek-tui", CODEWHALE, source="codewhale")
    assert [e.reason for e in errors(items)] == ["unknown_format_version"]
    said = events(items)
    assert said[-1].is_final_answer and said[-1].timestamp == said[0].timestamp  # carried, not invented


def test_latest_json_is_not_a_session() -> None:
    assert normalized("deepseek-tui", HOME / ".deepseek/sessions/latest.json") == []


def test_a_rewritten_file_yields_its_header_and_new_messages_and_a_half_written_one_is_reported_once(
    tmp_path: Path,
) -> None:
    path = tmp_path / SESSION.name
    document = json.loads(SESSION.read_text(encoding="utf-8"))
    path.write_text(json.dumps(document), encoding="utf-8")
    reader = DeepSeekTuiReader()
    first = list(reader.read(path, 0, 0))
    end = first[-1].end
    document["messages"].append({"role": "user", "content": "Thanks!"})
    path.write_text(json.dumps(document), encoding="utf-8")
    again = list(reader.read(path, end, first[-1].end_line))
    header, *messages = again
    assert (header.record.data["record"], header.offset, header.end) == ("document_header", end, end)
    assert [item.record.data["message"]["content"] for item in messages] == ["Thanks!"]
    path.write_text('{"metadata": {', encoding="utf-8")
    broken = [list(reader.read(path, end + 1, 0)) for _ in range(2)]
    assert [[item.error.reason for item in items if item.error] for items in broken] == [
        ["malformed_session_file"],
        [],
    ]
