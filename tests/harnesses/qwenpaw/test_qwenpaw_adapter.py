"""QwenPaw session files read from the fixture home."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from tests.harnesses.run import events, normalize_file

from moraine.harnesses.qwenpaw.adapter import QwenPawAdapter
from moraine.harnesses.qwenpaw.reader import QwenPawSessionReader
from moraine.harness_api.model import EventType, IngestError

HOME = Path(__file__).resolve().parent / "home"
CONSOLE = HOME / ".qwenpaw/workspaces/default/sessions/console/default_1788700000000.json"
LEGACY = HOME / ".copaw/workspaces/default/sessions/default_1788000000000.json"


def test_a_session_reads_prompts_thinking_calls_and_the_results_system_messages_carry() -> None:
    found = events(normalize_file(QwenPawAdapter(), CONSOLE, reader=QwenPawSessionReader())[0])
    assert {e.session for e in found} == {"default:console:default_1788700000000"}
    kinds = (
        "user_input reasoning assistant_response tool_call tool_response tool_call tool_call tool_response"
    )
    assert [e.type.value for e in found] == [*kinds.split(), "tool_response", "assistant_response"]
    assert found[0].starts_turn and found[0].timestamp == datetime(2026, 9, 7, 9, 30).astimezone()
    calls = [e for e in found if e.type is EventType.TOOL_CALL]
    responses = [e for e in found if e.type is EventType.TOOL_RESPONSE]
    assert (
        [c.tool_call_id for c in calls]
        == [r.tool_call_id for r in responses]
        == ["call_r1", "call_w1", "call_x1"]
    )
    assert calls[1].arguments["file_path"] == "/home/dev/notes-bot/summarize.py"
    assert responses[2].text == "4 passed in 0.21s"
    assert [e.is_final_answer for e in found if e.type is EventType.ASSISTANT_RESPONSE] == [False, True]


def test_the_legacy_copaw_folder_reads_the_same_way_and_sessions_are_read_once() -> None:
    items, end = normalize_file(QwenPawAdapter(), LEGACY, reader=QwenPawSessionReader())
    assert [(e.type, e.session) for e in events(items)] == [
        (EventType.USER_INPUT, "default:default_1788000000000"),
        (EventType.ASSISTANT_RESPONSE, "default:default_1788000000000"),
    ]
    assert end == 2
    assert normalize_file(QwenPawAdapter(), LEGACY, reader=QwenPawSessionReader(), offset=end)[0] == []


def test_bad_entries_and_documents_are_reported(tmp_path: Path) -> None:
    session = tmp_path / "w" / "sessions" / "s.json"
    session.parent.mkdir(parents=True)
    entries = [
        ["not a message"],
        {"role": "user"},
        [{"role": "robot", "content": []}],
        [{"role": "user", "timestamp": "soon"}],
    ]
    session.write_text(json.dumps({"agent": {"memory": {"content": entries}}}), encoding="utf-8")
    items, _ = normalize_file(QwenPawAdapter(), session, reader=QwenPawSessionReader())
    reasons = [i.reason for i in items if isinstance(i, IngestError)]
    assert reasons == ["malformed_record", "malformed_record", "unknown_record", "timestamp_parse_error"]
    session.write_text('{"agent": {}}', encoding="utf-8")
    items, _ = normalize_file(QwenPawAdapter(), session, reader=QwenPawSessionReader())
    assert [i.reason for i in items if isinstance(i, IngestError)] == ["malformed_session_file"]


def test_a_memory_rewritten_shorter_than_what_was_read_is_reported_once(tmp_path: Path) -> None:
    session = tmp_path / "w" / "sessions" / "s.json"
    session.parent.mkdir(parents=True)
    entry = [{"role": "user", "content": "hello"}, []]
    session.write_text(json.dumps({"agent": {"memory": {"content": [entry, entry, entry]}}}))
    reader = QwenPawSessionReader()
    _, end = normalize_file(QwenPawAdapter(), session, reader=reader)
    session.write_text(json.dumps({"agent": {"memory": {"content": [entry]}}}))
    items, _ = normalize_file(QwenPawAdapter(), session, reader=reader, offset=end)
    assert [i.reason for i in items if isinstance(i, IngestError)] == ["malformed_session_file"]
    assert normalize_file(QwenPawAdapter(), session, reader=reader, offset=end)[0] == []
