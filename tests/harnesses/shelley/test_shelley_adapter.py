"""Shelley: numbered content types read as blocks, tool results with errors, usage from usage_data."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.home import build_home
from tests.harnesses.run import read_cleanly, responses

from moraine.harness_api.model import EventType, TokenUsage


def test_a_conversation_reads_thinking_calls_results_usage_and_the_answer(tmp_path: Path) -> None:
    store = build_home(tmp_path, ["shelley"]) / ".config/shelley/shelley.db"
    info, said = read_cleanly("shelley", store)
    assert info.title == "greenhouse-fan-hysteresis" and info.cwd == "/home/dev/greenhouse"
    assert [e.type for e in said[:3]] == [EventType.USER_INPUT, EventType.REASONING, EventType.TOOL_CALL]
    assert said[1].usage == TokenUsage(input=3000, output=140, cache_read=2500, cache_write=0)
    assert said[2].arguments["path"] == "/home/dev/greenhouse/fan.go" and said[2].model == "claude-sonnet-4-5"
    assert responses(said) == [("patch", "toolu_s1", False), ("bash", "toolu_s2", True)]
    assert said[-1].is_final_answer and said[-1].text.startswith("The fan now uses")
