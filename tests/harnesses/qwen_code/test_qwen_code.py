"""Qwen Code adapter: golden output over the project's own chat fixture, plus the behaviours it must show."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.adapter_goldens import assert_golden, events, jsonl_records, run_adapter

from moraine.harnesses.qwen_code.adapter import QwenAdapter

HERE = Path(__file__).parent
HOME = HERE / "home"

CHAT = HOME / ".qwen/projects/-home-dev-orchard/chats/7d3c2a10-5b6e-4f11-9a8b-0c1d2e3f4a5b.jsonl"
SESSION = "7d3c2a10-5b6e-4f11-9a8b-0c1d2e3f4a5b"


def normalized() -> list[dict]:
    items, _ = run_adapter(QwenAdapter(), jsonl_records(CHAT), CHAT, "qwen-code")
    return items


def test_qwen_chat_matches_golden() -> None:
    assert_golden(normalized(), HERE / "expected/chat.golden.json")


def test_model_response_without_tool_calls_ends_the_turn_with_its_last_text() -> None:
    finals = [e for e in events(normalized()) if e["is_final_answer"]]
    assert [e["text"] for e in finals] == [
        "Remove that guard to keep them.",
        "I need the screenshot described in text.",
    ]
    assert all(e["terminal"] and e["terminal_kind"] == "final_response" for e in finals)


def test_moraine_tool_calls_are_canonical_with_original_spelling_in_provenance() -> None:
    calls = [e for e in events(normalized()) if e["tool_name"] == "search_sessions"]
    assert [c["type"] for c in calls] == ["tool_call", "tool_response"]
    assert all(c["is_moraine_tool"] for c in calls)
    assert calls[0]["provenance"]["original_tool_name"] == "mcp__moraine__search_sessions"
    assert calls[1]["tool_call_id"] == "call-search-1"


def test_only_real_user_prompts_start_turns() -> None:
    starts = [e["text"] for e in events(normalized()) if e["starts_turn"]]
    assert starts == [
        "Why does the pomegranate importer skip rows?\nLook at qwenorchardkeyword first.",
        "Now add a test for blank rows.",
    ]


def test_title_comes_from_custom_title_record_and_bad_records_are_reported() -> None:
    items = normalized()
    titles = [i["title"] for i in items if i["item"] == "session_info" and i["title"]]
    assert titles == ["Pomegranate importer rows"]
    reasons = [i["reason"] for i in items if i["item"] == "ingest_error"]
    assert reasons == ["malformed_record", "timestamp_parse_error", "malformed_record", "malformed_json"]
    assert all(e["session"] == SESSION for e in events(items))
