"""WorkBuddy transcripts and sub-agent transcripts read from the fixture home."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.run import events, normalize_file

from moraine.harnesses.workbuddy.adapter import WorkBuddyAdapter
from moraine.harness_api.model import EventType, IngestError, SessionInfo, TokenUsage

PROJECT = Path(__file__).resolve().parent / "home" / ".workbuddy" / "projects" / "tram-times"
SESSION = "9d4e1c72-3a5b-4f80-b6e2-1c7a9f0d5e33"


def test_a_transcript_reads_messages_calls_results_models_and_each_providers_token_counts() -> None:
    items, _ = normalize_file(WorkBuddyAdapter(), PROJECT / f"{SESSION}.jsonl")
    assert [i.cwd for i in items if isinstance(i, SessionInfo)] == ["/home/dev/tram-times"]
    found = events(items)
    assert {e.session for e in found} == {SESSION}
    kinds = "user_input assistant_response tool_call tool_response tool_call tool_response assistant_response"
    assert [e.type.value for e in found] == kinds.split()
    assert found[0].starts_turn and found[0].cwd == "/home/dev/tram-times"
    assert found[1].usage == TokenUsage(input=3100, output=40, cache_read=1024)
    # the provider's own (OpenAI) names: prompt_tokens 3300 includes the 2048 cached
    assert found[4].usage == TokenUsage(input=3300 - 2048, output=60, cache_read=2048)
    assert found[4].arguments["file_path"] == "/home/dev/tram-times/src/board.ts"  # an object as recorded
    assert found[2].arguments == {"file_path": "/home/dev/tram-times/src/board.ts"}  # a JSON string, parsed
    assert (found[3].tool_name, found[3].tool_call_id) == ("Read", "call_r1")
    assert found[-1].is_final_answer and found[-1].model == "hunyuan-t1"


def test_usage_is_counted_once_per_model_response_with_cached_tokens_left_out_of_input() -> None:
    """Hand count from the transcript's four model items: a1 input 3100 (cached 1024 apart) output 40; fc1 3150/22;
    fc2 ``rawUsage`` prompt_tokens 3300 of which 2048 cached, completion 60; a2 3400/18."""
    items, _ = normalize_file(WorkBuddyAdapter(), PROJECT / f"{SESSION}.jsonl")
    used = [e.usage for e in events(items) if e.usage is not None]
    assert len(used) == 4
    assert sum(u.input or 0 for u in used) == 3100 + 3150 + (3300 - 2048) + 3400
    assert sum(u.cache_read or 0 for u in used) == 1024 + 2048
    assert sum(u.output or 0 for u in used) == 40 + 22 + 60 + 18


def test_a_sub_agent_transcript_is_a_child_session() -> None:
    items, _ = normalize_file(WorkBuddyAdapter(), PROJECT / SESSION / "subagents" / "explore-1.jsonl")
    assert {e.session for e in events(items)} == {f"{SESSION}:explore-1"}
    assert [i.parent_session for i in items if isinstance(i, SessionInfo) and i.parent_session] == [SESSION]


def test_bad_items_are_reported_and_unknown_ones_ignored(tmp_path: Path) -> None:
    trace = tmp_path / "s.jsonl"
    trace.write_text(
        '[]\n{"type":"reasoning","text":"x"}\n{"type":"message","role":"user","content":"hi","timestamp":"x"}\n'
    )
    items, _ = normalize_file(WorkBuddyAdapter(), trace)
    assert [i.reason for i in items if isinstance(i, IngestError)] == [
        "malformed_record",
        "timestamp_parse_error",
    ]
    assert [(e.type, e.text) for e in events(items)] == [(EventType.USER_INPUT, "hi")]
