"""Kimi CLI adapter: goldens over the project's own wire logs (session and sub-agent), plus behaviours."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.adapter_goldens import assert_golden, events, jsonl_records, run_adapter

from moraine.harnesses.kimi_cli.adapter import KimiAdapter

HERE = Path(__file__).parent
HOME = HERE / "home"

SESSION_DIR = next((HOME / ".kimi/sessions").glob("*/*"))
WIRE = SESSION_DIR / "wire.jsonl"
CHILD = next(SESSION_DIR.glob("subagents/*/wire.jsonl"))


def normalized(path) -> list[dict]:
    items, _ = run_adapter(KimiAdapter(), jsonl_records(path), path, "kimi-cli")
    return items


def test_kimi_wire_log_matches_golden() -> None:
    assert_golden(normalized(WIRE), HERE / "expected/wire.golden.json")


def test_kimi_subagent_log_matches_golden() -> None:
    assert_golden(normalized(CHILD), HERE / "expected/subagent.golden.json")


def test_subagent_is_its_own_session_linked_to_the_parent() -> None:
    items = normalized(CHILD)
    assert items[0]["item"] == "session_info"
    assert items[0]["session"] == "e4d3c2b1-aaaa-4bbb-8ccc-ddddeeeeffff:agent-7f7f7f7f"
    assert items[0]["parent_session"] == "e4d3c2b1-aaaa-4bbb-8ccc-ddddeeeeffff"
    assert all(e["sidechain"] for e in events(items))


def test_turn_end_and_interrupt_end_turns_and_tool_results_know_their_tool() -> None:
    items = events(normalized(WIRE))
    assert [(e["type"], e["terminal_kind"]) for e in items if e["terminal"]] == [
        ("runtime", "stopped"),
        ("runtime", "interrupted"),
    ]
    results = [(e["tool_name"], e["text"], e["tool_error"]) for e in items if e["type"] == "tool_response"]
    assert results == [("ReadFile", "while(1){ poll(); }", False), ("Shell", "make: *** no rule lint", True)]
    assert not any("MIRROR" in e["text"] for e in items)


def test_unknown_and_malformed_wire_lines_are_reported() -> None:
    reasons = [i["reason"] for i in normalized(WIRE) if i["item"] == "ingest_error"]
    assert reasons == ["unknown_record", "timestamp_parse_error", "malformed_record"]


def test_working_directory_comes_from_the_md5_named_work_dir_in_kimi_json() -> None:
    items = normalized(WIRE)
    assert items[0]["cwd"] == "/home/dev/beehive"
    assert {e["cwd"] for e in events(items)} == {"/home/dev/beehive"}
    assert normalized(CHILD)[0]["cwd"] == "/home/dev/beehive"
