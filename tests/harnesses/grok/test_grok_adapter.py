"""Grok Build chat histories, current and legacy, with their summary.json."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.run import events, normalize_file

from moraine.harnesses.grok.adapter import GrokAdapter
from moraine.harness_api.model import EventType, IngestError, SessionInfo

SESSIONS = Path(__file__).resolve().parent / "home" / ".grok" / "sessions" / "%2Fhome%2Fdev%2Fmarina"
CURRENT = SESSIONS / "019f7a00-1b2c-7d3e-8f40-5a6b7c8d9e01" / "chat_history.jsonl"
LEGACY = SESSIONS / "019f2b00-aa11-7bb2-8cc3-d4e5f6a7b802" / "chat_history.jsonl"


def test_a_current_history_reads_prompts_without_context_blocks_calls_and_the_summary() -> None:
    items, _ = normalize_file(GrokAdapter(), CURRENT)
    info = next(i for i in items if isinstance(i, SessionInfo))
    assert (info.session, info.title, info.cwd) == (
        CURRENT.parent.name,
        "Berth fees per night",
        "/home/dev/marina",
    )
    found = events(items)
    prompts = [e for e in found if e.type is EventType.USER_INPUT]
    assert prompts[0].text.startswith("Berth fees are charged") and prompts[0].starts_turn
    assert (prompts[1].text, prompts[1].starts_turn) == (
        "keep the minimum of one night",
        False,
    )  # interjection
    assert len(prompts) == 2  # injected project instructions are not prompts
    calls = {e.tool_call_id: e for e in found if e.type is EventType.TOOL_CALL}
    assert calls["call_g2"].arguments["file_path"] == "/home/dev/marina/fees.py"
    assert calls["ws_1"].tool_name == "web_search"
    results = {e.tool_call_id: e.text for e in found if e.type is EventType.TOOL_RESPONSE}
    assert results["ws_1"] == "completed" and "days + 1" in results["call_g1"]
    assert found[-1].is_final_answer and found[-1].model == "grok-code-fast-1"
    assert {e.timestamp.isoformat() for e in found if e.timestamp} == {"2026-09-12T08:04:00+00:00"}


def test_a_legacy_history_reads_chat_completions_rows() -> None:
    found = events(normalize_file(GrokAdapter(), LEGACY)[0])
    kinds = "user_input reasoning tool_call tool_response assistant_response"
    assert [e.type.value for e in found] == kinds.split()
    assert found[2].tool_name == "grep" and found[2].arguments["path"] == "/home/dev/marina"
    assert found[3].tool_call_id == "call_l1" and found[-1].is_final_answer


def test_bad_rows_are_reported_and_unknown_rows_ignored(tmp_path: Path) -> None:
    history = tmp_path / "s1" / "chat_history.jsonl"
    history.parent.mkdir()
    history.write_text('"row"\n{"type":"telemetry"}\n{"role":"user","content":"hi"}\n')
    items, _ = normalize_file(GrokAdapter(), history)
    assert [i.reason for i in items if isinstance(i, IngestError)] == ["malformed_record"]
    assert [(e.session, e.text, e.timestamp) for e in events(items)] == [("s1", "hi", None)]


def test_an_unknown_chat_format_version_is_reported_once_per_summary(tmp_path: Path) -> None:
    history = tmp_path / "s2" / "chat_history.jsonl"
    history.parent.mkdir()
    history.write_text(
        '{"type":"user","content":"one","prompt_index":0}\n{"type":"user","content":"two","prompt_index":1}\n'
    )
    (history.parent / "summary.json").write_text('{"info": {"id": "s2"}, "chat_format_version": 7}')
    items, _ = normalize_file(GrokAdapter(), history)
    assert [i.detail for i in items if isinstance(i, IngestError)] == ["chat_format_version 7"]
    assert [e.text for e in events(items)] == ["one", "two"]
