"""ZCode: sessions of content blocks and OpenCode-style tool parts, the last message held while streaming."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.harnesses.home import build_home
from tests.harnesses.run import events, normalized, read_cleanly, responses

from moraine.harnesses.zcode.reader import ZCodeReader
from moraine.harness_api.model import EventType


def _store(tmp_path: Path) -> Path:
    return build_home(tmp_path, ["zcode"]) / ".zcode/cli/db/db.sqlite"


def test_blocks_and_tool_parts_read_as_calls_with_linked_results_and_a_final_answer(tmp_path: Path) -> None:
    info, said = read_cleanly("zcode", _store(tmp_path))
    assert info.title == "Ferry timetable parser" and info.cwd == "/home/dev/ferry"
    assert [e.type for e in said[:3]] == [EventType.USER_INPUT, EventType.REASONING, EventType.TOOL_CALL]
    assert said[1].model == "glm-4.6"
    assert responses(said) == [
        ("Read", "call-z1", None),
        ("Edit", "call-z2", False),
        ("Bash", "call-z3", True),
    ]
    assert [e.is_final_answer for e in said if e.type is EventType.ASSISTANT_RESPONSE] == [True]


def test_a_session_changed_just_now_holds_its_last_assistant_message(tmp_path: Path) -> None:
    store = _store(tmp_path)
    connection = sqlite3.connect(store)
    connection.execute("UPDATE session SET time_updated = 4102444800000")
    connection.commit()
    connection.close()
    state: dict = {}
    first = events(normalized("zcode", store, state=state, reader=ZCodeReader(clock=lambda: 4102444800.0)))
    assert not any(e.type is EventType.ASSISTANT_RESPONSE for e in first)
    idle = ZCodeReader(clock=lambda: 4102444800.0 + 600)
    later = events(normalized("zcode", store, state=state, reader=idle))
    assert [e.type for e in later] == [EventType.ASSISTANT_RESPONSE]
