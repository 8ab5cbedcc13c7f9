"""Codebuff: chat-messages.json read as blocks; wall-clock stamps placed on the chat folder's day."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.harnesses.home import HARNESS_TESTS
from tests.harnesses.run import read_cleanly, responses

from moraine.harness_api.model import EventType

CHAT = next((HARNESS_TESTS / "codebuff/home/.config/manicode/projects").rglob("chat-messages.json"))


def test_reasoning_tools_with_outputs_and_the_answer() -> None:
    info, said = read_cleanly("codebuff", CHAT)
    assert info.session == "2026-11-25T08-30-00.000Z"
    assert info.started_at == datetime(2026, 11, 25, 8, 30, tzinfo=UTC)
    assert [e.type for e in said[:3]] == [EventType.USER_INPUT, EventType.REASONING, EventType.TOOL_CALL]
    assert responses(said) == [
        ("read_files", "tc-cb1", None),
        ("str_replace", "tc-cb2", None),
        ("run_terminal_command", "tc-cb3", None),
    ]
    assert [e.text for e in said if e.is_final_answer] == [
        "An unplugged sensor now reports 'unknown' instead of north."
    ]
    assert not any("Connection reset" in e.text for e in said)


def test_a_wall_clock_stamp_is_that_local_time_on_the_chat_day() -> None:
    _, said = read_cleanly("codebuff", CHAT)
    answer = said[-1].timestamp
    local = answer.astimezone()
    assert (local.hour, local.minute) == (8, 31)
    assert local.date() == datetime(2026, 11, 25, 8, 30, tzinfo=UTC).astimezone().date()
