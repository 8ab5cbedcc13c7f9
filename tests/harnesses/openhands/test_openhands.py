"""OpenHands: a conversation folder read as one stream (its state, then its event files), normalized."""

from __future__ import annotations

import shutil
from pathlib import Path

from moraine.harnesses.openhands.conversation_reader import OpenHandsConversationReader
from moraine.harness_api.model import EventType, IngestError, SessionInfo
from tests.harnesses.run import assert_reported_then_read, emitted, events, normalize_data

CONVERSATION = (
    Path(__file__).parent / "home" / ".openhands" / "conversations" / "5b1e9c0d2a7f4e63b8d41c9a0e7f3b26"
)
SESSION = "5b1e9c0d-2a7f-4e63-b8d4-1c9a0e7f3b26"


def _items() -> list:
    return emitted("openhands", "openhands_conversation", CONVERSATION / "base_state.json")


def test_the_conversation_state_gives_session_model_and_workspace() -> None:
    items = _items()
    assert [(i.session, i.model, i.cwd) for i in items if isinstance(i, SessionInfo)] == [
        (SESSION, "anthropic/claude-sonnet-4-5-20250929", "/home/dev/projects/greenhouse")
    ]
    assert {e.session for e in events(items)} == {SESSION}
    assert not [i for i in items if isinstance(i, IngestError)]


def test_actions_and_observations_are_calls_and_responses_linked_by_call_id() -> None:
    items = _items()
    calls = events(items, EventType.TOOL_CALL)
    assert [(c.tool_name, c.tool_call_id) for c in calls] == [
        ("terminal", "toolu_01VentGrep"),
        ("file_editor", "toolu_02VentFix"),
        ("terminal", "toolu_03VentTest"),
    ]
    assert calls[1].arguments["path"] == "/home/dev/projects/greenhouse/vents/controller.py"
    assert calls[0].provenance["summary"] == "Find the vent threshold comparison"
    responses = events(items, EventType.TOOL_RESPONSE)
    assert [(r.tool_call_id, r.exit_code, r.tool_error) for r in responses] == [
        ("toolu_01VentGrep", 0, False),
        ("toolu_02VentFix", None, False),
        ("toolu_03VentTest", 1, False),
    ]


def test_the_user_opens_the_turn_and_the_agent_message_is_its_final_answer() -> None:
    items = _items()
    assert [u.starts_turn for u in events(items, EventType.USER_INPUT)] == [True]
    answers = events(items, EventType.ASSISTANT_RESPONSE)
    assert [a.is_final_answer for a in answers] == [False, True]
    assert answers[0].text == "Let me find where the vent threshold is compared."
    reasoning = events(items, EventType.REASONING)
    assert [r.text[:23] for r in reasoning] == ["The comparison is proba", "The failing test uses 7"]


def test_new_event_files_are_read_after_the_saved_position_and_a_half_written_one_waits(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "conversation"
    shutil.copytree(CONVERSATION, folder)
    newest = sorted((folder / "events").glob("*.json"))[-1]
    complete = newest.read_text(encoding="utf-8")
    newest.write_text(complete[:40], encoding="utf-8")
    reader = OpenHandsConversationReader()
    first = list(reader.read(folder / "base_state.json", 0, 0))
    assert [i.error.reason for i in first if i.error] == ["malformed_event"]
    read = [i for i in first if i.record]
    assert len(read) == 8  # the state and seven complete events
    newest.write_text(complete, encoding="utf-8")
    rest = list(reader.read(folder / "base_state.json", read[-1].end, read[-1].end_line))
    assert [i.record.data["event"]["kind"] for i in rest if i.record] == ["MessageEvent"]


def test_malformed_openhands_records_become_ingest_errors_not_crashes(tmp_path: Path) -> None:
    conversation = {"id": SESSION}
    items = normalize_data(
        "openhands",
        [
            {"record": "openhands_event", "conversation": {}, "event": {"kind": "MessageEvent"}},
            {"record": "something_else"},
            {"record": "openhands_event", "conversation": conversation, "event": {"kind": "ActionEvent"}},
            {
                "record": "openhands_event",
                "conversation": conversation,
                "event": {"kind": "MessageEvent", "llm_message": {"role": "robot"}},
            },
            {
                "record": "openhands_event",
                "conversation": conversation,
                "event": {
                    "kind": "MessageEvent",
                    "timestamp": "soon",
                    "llm_message": {"role": "user", "content": [{"type": "text", "text": "still read"}]},
                },
            },
            {
                "record": "openhands_event",
                "conversation": conversation,
                "event": {"kind": "FutureEvent", "x": 1},
            },
        ],
        tmp_path / "base_state.json",
    )
    assert_reported_then_read(
        items,
        ["still read"],
        "malformed_record",
        "unknown_record",
        "malformed_record",
        "unknown_record",
        "timestamp_parse_error",
    )
