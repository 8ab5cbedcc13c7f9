"""iCodeMate: its OpenCode-schema store read under its own harness value."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.home import build_home
from tests.harnesses.run import read_cleanly

from moraine.harness_api.model import EventType


def test_a_write_call_and_the_stopping_answer(tmp_path: Path) -> None:
    store = build_home(tmp_path, ["icodemate"]) / ".local/share/icodemate/icodemate.db"
    info, said = read_cleanly("icodemate", store)
    assert info.title == "Bell ringer quiet hours"
    call = next(e for e in said if e.type is EventType.TOOL_CALL)
    assert (call.tool_name, call.arguments["filePath"]) == ("write", "/home/dev/bellringer/quiet.py")
    assert said[-2].is_final_answer and said[-2].model == "qwen3-coder"
