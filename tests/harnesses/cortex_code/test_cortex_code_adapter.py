"""Cortex Code: conversations with a history sidecar or inline history, nested tool blocks, injected text."""

from __future__ import annotations

from tests.harnesses.home import HARNESS_TESTS
from tests.harnesses.run import normalized, read_cleanly, responses

from moraine.harness_api.model import EventType

FOLDER = HARNESS_TESTS / "cortex_code/home/.snowflake/cortex/conversations"
SIDECAR = FOLDER / "3f4e5d6c-7b8a-4930-a1b2-c3d4e5f6a7b8.json"
INLINE = FOLDER / "9a8b7c6d-5e4f-4321-8fed-cba987654321.json"


def test_the_history_sidecar_is_read_with_injected_text_as_system_and_statuses_as_errors() -> None:
    info, events = read_cleanly("cortex-code", SIDECAR)
    assert info.session == SIDECAR.stem
    assert info.title == "Warehouse load job retries" and info.cwd == "/home/dev/loader"
    assert [e.type for e in events[:2]] == [EventType.SYSTEM, EventType.USER_INPUT]
    assert events[1].starts_turn and "cortexwalruskeyword" in events[1].text
    assert responses(events) == [
        ("read", "tooluse_a1", False),
        ("edit", "tooluse_a2", False),
        ("bash", "tooluse_a3", True),
    ]
    edit = next(e for e in events if e.tool_name == "edit")
    assert edit.arguments["file_path"] == "/home/dev/loader/jobs/nightly.py"
    assert [e.is_final_answer for e in events if e.type is EventType.ASSISTANT_RESPONSE] == [False, True]
    assert all(e.timestamp is not None for e in events[1:])


def test_inline_history_is_read_and_a_generated_title_is_not_a_title() -> None:
    info, events = read_cleanly("cortex-code", INLINE)
    assert info.title is None
    assert [e.type for e in events] == [
        EventType.USER_INPUT,
        EventType.TOOL_CALL,
        EventType.TOOL_RESPONSE,
        EventType.ASSISTANT_RESPONSE,
    ]
    assert events[2].text == "COUNT(*)\n1048576"


def test_backups_yield_nothing() -> None:
    backup = next(FOLDER.glob("*.back.*.json"))
    assert normalized("cortex-code", backup) == []
