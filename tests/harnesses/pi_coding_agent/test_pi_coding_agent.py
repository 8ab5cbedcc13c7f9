"""pi-coding-agent adapter (sources pi and omp): goldens over the project's own session trees, plus behaviours."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.adapter_goldens import assert_golden, events, jsonl_records, run_adapter

from moraine.harnesses.pi_coding_agent.adapter import PiAdapter

HERE = Path(__file__).parent
HOME = HERE / "home"

PI = next((HOME / ".pi/agent/sessions").rglob("*.jsonl"))
OMP = next((HOME / ".omp/agent/sessions").rglob("*.jsonl"))


def normalized(path=PI, source: str = "pi") -> list[dict]:
    items, _ = run_adapter(PiAdapter(), jsonl_records(path), path, source)
    return items


def test_pi_session_matches_golden() -> None:
    assert_golden(normalized(), HERE / "expected/pi/session.golden.json")


def test_omp_session_matches_golden() -> None:
    assert_golden(normalized(OMP, "omp"), HERE / "expected/omp/session.golden.json")


def test_stop_reason_decides_how_each_turn_ends() -> None:
    ends = [
        (e["text"], e["terminal_kind"], e["is_final_answer"]) for e in events(normalized()) if e["terminal"]
    ]
    assert ends == [
        ("The lighthouse uses the halogen-9 driver.", "final_response", True),
        ("Starting the swap", "interrupted", False),
        ("overloaded_error: try later", "crashed", False),
    ]


def test_user_shell_command_is_a_bash_call_with_its_exit_code() -> None:
    bash = [e for e in events(normalized()) if e["tool_name"] == "bash"]
    assert [(e["type"], e["exit_code"], e["tool_error"]) for e in bash] == [
        ("tool_call", None, None),
        ("tool_response", 2, True),
    ]
    assert bash[0]["arguments"] == {"command": "ls drivers"}


def test_session_header_name_and_model_become_session_metadata() -> None:
    infos = [i for i in normalized() if i["item"] == "session_info"]
    assert infos[0]["session"] == "0f1e2d3c-4b5a-4697-8877-665544332211"
    assert infos[0]["cwd"] == "/home/dev/lighthouse"
    assert [i["title"] for i in infos if i["title"]] == ["Lighthouse lamp driver"]
    assert [i["model"] for i in infos if i["model"]] == ["claude-sonnet-4-5"]
    omp_titles = [i["title"] for i in normalized(OMP, "omp") if i["item"] == "session_info" and i["title"]]
    assert omp_titles == ["Fog horn schedule"]


def test_hidden_entries_and_unknown_types_stay_out_and_bad_lines_are_reported() -> None:
    items = normalized()
    assert not any("HIDDEN" in e["text"] or "FUTURE" in e["text"] for e in events(items))
    assert [i["reason"] for i in items if i["item"] == "ingest_error"] == [
        "timestamp_parse_error",
        "malformed_record",
        "malformed_json",
    ]
    fallback = next(e for e in events(items) if e["text"].startswith("bad timestamp"))
    assert fallback["timestamp"] == "2026-04-01T10:03:20+00:00"
