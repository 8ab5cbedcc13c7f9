"""TRAE CLI: Codex-format rollouts under ~/.trae/cli, with token usage and `traex resume`."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.run import emitted, events, normalize
from moraine.harness_api.model import EventType, IngestError, RawRecord, SessionInfo, TokenUsage
from moraine.resume import resume_command

ROLLOUT = next((Path(__file__).resolve().parent / "home").rglob("rollout-*.jsonl"))


def test_a_rollout_reads_as_codex_with_the_last_call_token_usage() -> None:
    items = emitted("trae-cli", "jsonl", ROLLOUT)
    assert not [i for i in items if isinstance(i, IngestError)]
    sessions = {i.session for i in items if isinstance(i, SessionInfo)}
    assert sessions == {"019fd2a4-6c1e-7b30-9a52-4e8d0c7f1b26"}
    [usage] = [e.usage for e in events(items) if e.usage is not None]
    assert usage == TokenUsage(
        input=11210 - 9984, output=287, cache_read=9984, reasoning=128
    )  # input: uncached
    calls = events(items, type=EventType.TOOL_CALL)
    assert [c.tool_name for c in calls] == ["shell", "apply_patch"]
    [final] = [e for e in events(items, type=EventType.ASSISTANT_RESPONSE) if e.is_final_answer]
    assert "settings.max_hdop" in final.text


def test_the_resume_command_is_traex_resume_in_the_session_directory() -> None:
    assert resume_command("trae-cli", "019fd2a4", "/home/dev/shearwater-tags") == (
        "cd /home/dev/shearwater-tags && traex resume 019fd2a4"
    )


def test_a_line_that_is_not_an_object_is_an_error_and_an_unknown_kind_is_kept_as_unknown() -> None:
    bad = [RawRecord(["not", "an", "object"], 1, 0), RawRecord({"type": "mystery", "payload": {}}, 2, 10)]
    error, unknown = normalize("trae-cli", bad, ROLLOUT)
    assert isinstance(error, IngestError) and error.reason == "malformed_record"
    assert unknown in events([unknown], type=EventType.UNKNOWN)
