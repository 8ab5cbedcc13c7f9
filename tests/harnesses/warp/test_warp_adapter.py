"""Warp: agent conversations read as their queries, in order, with model and working directory."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.home import build_home
from tests.harnesses.run import read_cleanly

from moraine.harness_api.model import EventType


def test_each_query_is_a_turn_with_its_time_model_and_directory(tmp_path: Path) -> None:
    store = build_home(tmp_path, ["warp"]) / ".local/state/warp-terminal/warp.sqlite"
    info, said = read_cleanly("warp", store)
    assert info.session == "c0ffee00-1111-4222-8333-444455556666" and info.cwd == "/home/dev/tramtimes"
    assert [(e.type, e.starts_turn) for e in said] == [(EventType.USER_INPUT, True)] * 2
    assert said[1].text == "Use the local timezone instead of UTC when picking the date."
    assert said[0].provenance["model"] == "claude-4-sonnet" and said[0].timestamp < said[1].timestamp
