"""OpenClaude transcripts read by the Claude Code adapter under their own harness value."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.run import events, normalize_file

from moraine.harnesses.openclaude.adapter import OpenClaudeAdapter
from moraine.harnesses._shared.claude_format.adapter import ClaudeCodeAdapter
from moraine.harness_api.model import EventType, IngestError, SessionInfo

TRANSCRIPT = next((Path(__file__).resolve().parent / "home" / ".openclaude" / "projects").glob("*/*.jsonl"))


def test_a_transcript_reads_exactly_as_claude_code_reads_it_under_the_openclaude_value() -> None:
    ours, _ = normalize_file(OpenClaudeAdapter(), TRANSCRIPT)
    claude, _ = normalize_file(ClaudeCodeAdapter(), TRANSCRIPT)
    assert OpenClaudeAdapter.harness == "openclaude"
    assert ours == claude
    found = events(ours)
    assert [e.type for e in found if e.type is EventType.TOOL_CALL] == [EventType.TOOL_CALL]
    answer = next(e for e in found if e.is_final_answer)
    assert answer.model == "deepseek-v3.2" and "0.5 Hz" in answer.text
    assert "Beacon blink period fix" in {i.title for i in ours if isinstance(i, SessionInfo)}


def test_a_record_without_a_type_is_reported(tmp_path: Path) -> None:
    trace = tmp_path / "s.jsonl"
    trace.write_text('{"sessionId": "s"}\n')
    assert [type(i) for i in normalize_file(OpenClaudeAdapter(), trace)[0]] == [IngestError]
