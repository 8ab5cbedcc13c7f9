"""Copilot CLI session events, both layouts, read from the fixture home."""

from __future__ import annotations

import json
from pathlib import Path

from tests.harnesses.run import events, normalize_file

from moraine.harnesses.copilot_cli.adapter import CopilotCliAdapter
from moraine.harnesses.copilot_cli.history import CopilotHistoryReader
from moraine.harness_api.adapter import StreamContext
from moraine.harness_api.model import EventType, IngestError, SessionInfo, TerminalKind, TokenUsage

STATE = Path(__file__).resolve().parent / "home" / ".copilot" / "session-state"
CURRENT = next(STATE.glob("*/events.jsonl"))
FLAT = next(STATE.glob("*.jsonl"))


def test_a_session_reads_prompts_replies_reasoning_calls_results_and_the_workspace_title() -> None:
    items, _ = normalize_file(CopilotCliAdapter(), CURRENT)
    infos = [item for item in items if isinstance(item, SessionInfo)]
    assert infos[0].session == "5f0c9e2a-71b4-4d1e-8a3c-2b6d7e9f1a04" and infos[0].cwd == "/home/dev/skyline"
    assert "Retry flaky weather fetch" in {i.title for i in infos}
    assert "claude-sonnet-4.5" in {i.model for i in infos}
    found = events(items)
    prompt = found[0]
    assert prompt.type is EventType.USER_INPUT and prompt.starts_turn and "copilototterkeyword" in prompt.text
    assert [e.type for e in found[1:4]] == [
        EventType.REASONING,
        EventType.ASSISTANT_RESPONSE,
        EventType.TOOL_CALL,
    ]
    calls = {e.tool_call_id: e for e in found if e.type is EventType.TOOL_CALL}
    results = {e.tool_call_id: e for e in found if e.type is EventType.TOOL_RESPONSE}
    assert set(calls) == set(results) == {"toolu_01", "toolu_02", "toolu_03"}
    assert (
        calls["toolu_02"].arguments["path"] == "/home/dev/skyline/weather/fetch.py"
    )  # a JSON string, parsed
    assert results["toolu_03"].tool_error is True and results["toolu_03"].tool_name == "bash"
    assert results["toolu_01"].tool_error is False and "fetch_forecast" in results["toolu_01"].text
    assert calls["toolu_01"].usage == TokenUsage(output=96)
    finals = [e for e in found if e.is_final_answer]
    assert [f.text[:26] for f in finals] == ["I added session_with_retri"]
    aborted = found[-1]
    assert aborted.terminal and aborted.terminal_kind is TerminalKind.CANCELLED
    assert found[-2].type is EventType.USER_INPUT and found[-2].starts_turn


def test_the_older_flat_layout_takes_its_session_id_and_answer() -> None:
    found = events(normalize_file(CopilotCliAdapter(), FLAT)[0])
    assert {e.session for e in found} == {"0b7d3e55-2f18-4a96-b1c0-8e4f6a2d9c37"}
    assert [e.type for e in found] == [EventType.USER_INPUT, EventType.ASSISTANT_RESPONSE]
    assert found[-1].is_final_answer


def test_bad_input_is_reported_and_unknown_events_are_ignored(tmp_path: Path) -> None:
    trace = tmp_path / "events.jsonl"
    trace.write_text(
        '"text"\n{"type":"hook.start","data":{}}\n{"type":"user.message","data":"oops","timestamp":"noon"}\n',
        encoding="utf-8",
    )
    items, _ = normalize_file(CopilotCliAdapter(), trace, StreamContext(trace, "copilot-cli"))
    assert [i.reason for i in items if isinstance(i, IngestError)] == [
        "malformed_record",
        "timestamp_parse_error",
    ]
    assert [(e.type, e.text, e.session) for e in events(items)] == [(EventType.USER_INPUT, "", tmp_path.name)]


def test_an_early_history_file_reads_its_chat_messages_calls_and_results() -> None:
    early = next((STATE.parent / "history-session-state").glob("session_*.json"))
    items, end = normalize_file(CopilotCliAdapter(), early, reader=CopilotHistoryReader())
    assert end == 7  # the header and six messages
    found = events(items)
    assert {e.session for e in found} == {"c3a1e5b0-4d2f-4e8a-9b17-6f0d2c8e1a93"}
    kinds = "user_input assistant_response tool_call tool_response tool_call tool_response assistant_response"
    assert [e.type.value for e in found] == kinds.split()
    assert found[4].arguments["path"] == "/home/dev/skyline/README.md"
    assert (found[5].tool_call_id, found[5].tool_name) == (
        "call_h2",
        "str_replace_editor",
    )  # named by its call
    assert found[-1].is_final_answer and not found[1].is_final_answer
    assert found[0].provenance["timestamp_source"] == "session_start" and found[0].timestamp.year == 2025


def test_an_early_history_file_kept_in_its_timeline_is_read_not_lost(tmp_path: Path) -> None:
    # Issue 44: an early file with an empty chatMessages and the conversation in timeline was "not read".
    timeline = [
        {"id": "t1", "timestamp": "2025-09-30T08:00:00.000Z", "type": "info", "text": "Logged in."},
        {
            "id": "t2",
            "timestamp": "2025-09-30T08:00:05.000Z",
            "type": "user",
            "text": "count the TODOs in @src",
            "expandedText": "count the TODOs in /home/dev/app/src",
            "mentions": [],
        },
        {
            "id": "t3",
            "timestamp": "2025-09-30T08:00:07.000Z",
            "type": "copilot",
            "text": "I'll search for them.",
        },
        {
            "id": "t4",
            "timestamp": "2025-09-30T08:00:07.500Z",
            "type": "tool_call_requested",
            "callId": "call_1",
            "name": "bash",
            "toolTitle": "Run command",
            "intentionSummary": "Count TODO markers",
            "arguments": {"command": "grep -rc TODO src"},
        },
        {
            "id": "t5",
            "timestamp": "2025-09-30T08:00:08.000Z",
            "type": "tool_call_completed",
            "callId": "call_1",
            "name": "bash",
            "result": {"type": "success", "log": "src/a.py:3"},
        },
        {
            "id": "t6",
            "timestamp": "2025-09-30T08:00:10.000Z",
            "type": "copilot",
            "text": "There are 3 TODOs.",
        },
    ]
    document = {"sessionId": "0e9d8c7b-aaaa-4bbb-8ccc-123456789abc", "startTime": "2025-09-30T08:00:00.000Z"}
    early = tmp_path / "session_0e9d8c7b-aaaa-4bbb-8ccc-123456789abc_1759219200000.json"
    early.write_text(json.dumps({**document, "chatMessages": [], "timeline": timeline}), encoding="utf-8")
    items, end = normalize_file(CopilotCliAdapter(), early, reader=CopilotHistoryReader())
    assert end == 7 and not [i for i in items if isinstance(i, IngestError)]
    found = events(items)
    assert [(e.type.value, e.text) for e in found] == [
        ("system", "Logged in."),
        ("user_input", "count the TODOs in @src"),
        ("assistant_response", "I'll search for them."),
        ("tool_call", found[3].text),
        ("tool_response", "src/a.py:3"),
        ("assistant_response", "There are 3 TODOs."),
    ]
    assert (found[3].tool_name, found[3].arguments) == ("bash", {"command": "grep -rc TODO src"})
    assert found[4].tool_call_id == "call_1" and found[4].tool_error is False
    assert found[1].starts_turn and found[1].timestamp.isoformat() == "2025-09-30T08:00:05+00:00"
    assert found[-1].is_final_answer
