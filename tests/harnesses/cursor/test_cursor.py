"""Cursor adapter (source cursor): golden over the project's own agent transcript, plus behaviours."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.adapter_goldens import assert_golden, events, jsonl_records, run_adapter

from moraine.harnesses.cursor.adapter import CursorAdapter

HERE = Path(__file__).parent
HOME = HERE / "home"

TRANSCRIPT = next((HOME / ".cursor/projects").rglob("agent-transcripts/*/*.jsonl"))


def normalized() -> list[dict]:
    items, _ = run_adapter(CursorAdapter(), jsonl_records(TRANSCRIPT), TRANSCRIPT, "cursor")
    return items


def test_cursor_transcript_matches_golden() -> None:
    assert_golden(normalized(), HERE / "expected/transcript.golden.json")


def test_session_id_is_the_transcript_uuid_and_tool_results_recall_their_tool() -> None:
    items = events(normalized())
    assert {e["session"] for e in items} == {"3c4d5e6f-7a8b-4c9d-8e0f-a1b2c3d4e5f6"}
    results = [
        (e["tool_name"], e["tool_error"], e["is_moraine_tool"]) for e in items if e["type"] == "tool_response"
    ]
    assert results == [("Grep", False, False), ("list_sessions", True, True)]


def test_response_without_tool_calls_is_the_final_answer() -> None:
    finals = [e["text"] for e in events(normalized()) if e["is_final_answer"] and e["terminal"]]
    assert finals == ["The sample rate is zero, so the graph never updates."]


def test_unknown_roles_malformed_lines_and_bad_timestamps_are_reported() -> None:
    reasons = [i["reason"] for i in normalized() if i["item"] == "ingest_error"]
    assert reasons == ["unknown_record", "malformed_record", "timestamp_parse_error"]
