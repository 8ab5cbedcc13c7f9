"""MiMoCode: its OpenCode-schema store read by the OpenCode reader and adapter under its own harness value."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.home import build_home
from tests.harnesses.run import read_cleanly, responses

from moraine.ingest.adapters import adapter_for
from moraine.harness_api.model import EventType


def test_the_store_reads_as_parts_with_the_answer_ending_the_turn(tmp_path: Path) -> None:
    store = build_home(tmp_path, ["mimocode"]) / ".local/share/mimocode/mimocode.db"
    info, events = read_cleanly("mimocode", store)
    assert info.title == "Kite wind log units" and info.cwd == "/home/dev/kitelog"
    assert responses(events) == [("edit", "call_k1", False), ("bash", "call_k2", False)]
    assert [e.exit_code for e in events if e.type is EventType.TOOL_RESPONSE] == [None, 0]
    assert [e.text[:9] for e in events if e.is_final_answer] == ["Wind spee"]
    assert adapter_for("mimocode").harness == "mimocode"
