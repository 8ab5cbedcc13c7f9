"""iFlow transcripts: Claude Code's format, streaming snapshots deduplicated, sessions by file."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.run import events, normalize_file

from moraine.harnesses.iflow.adapter import IflowAdapter
from moraine.harness_api.model import EventType, IngestError, SessionInfo

PROJECT = Path(__file__).resolve().parent / "home" / ".iflow" / "projects" / "-home-dev-ferry"
FIRST = PROJECT / "session-8c2f4a10-5b7e-4d93-a1c6-0e9d2b7f3a18.jsonl"
CONTINUED = PROJECT / "session-2e71d9c3-0a45-4f1b-8d26-9c3b5e0a7f41.jsonl"


def test_a_tool_call_repeated_by_a_later_snapshot_is_read_once() -> None:
    found = events(normalize_file(IflowAdapter(), FIRST)[0])
    assert {e.session for e in found} == {"8c2f4a10-5b7e-4d93-a1c6-0e9d2b7f3a18"}
    calls = [e for e in found if e.type is EventType.TOOL_CALL]
    assert [(c.tool_name, c.tool_call_id) for c in calls] == [
        ("read_file", "call_a1"),
        ("replace", "call_a2"),
    ]
    results = [e for e in found if e.type is EventType.TOOL_RESPONSE]
    assert [r.tool_call_id for r in results] == ["call_a1", "call_a2"]
    assert calls[1].arguments["file_path"] == "/home/dev/ferry/timetable.py"
    assert (
        found[0].starts_turn and "iflowpuffinkeyword" in found[0].text and found[0].cwd == "/home/dev/ferry"
    )
    answers = [e for e in found if e.type is EventType.ASSISTANT_RESPONSE]
    assert [a.is_final_answer for a in answers] == [False, False, True]
    assert {e.model for e in answers} == {"glm-4.7"}


def test_a_continued_session_is_its_own_file_with_the_session_it_continues_as_parent() -> None:
    items, _ = normalize_file(IflowAdapter(), CONTINUED)
    assert {e.session for e in events(items)} == {"2e71d9c3-0a45-4f1b-8d26-9c3b5e0a7f41"}
    parents = [i.parent_session for i in items if isinstance(i, SessionInfo) and i.parent_session]
    assert parents == ["8c2f4a10-5b7e-4d93-a1c6-0e9d2b7f3a18"]


def test_bad_records_are_reported(tmp_path: Path) -> None:
    trace = tmp_path / "session-x.jsonl"
    trace.write_text('["a"]\n{"type": 3}\n{"type":"assistant","message":{"role":"assistant","content":7}}\n')
    items, _ = normalize_file(IflowAdapter(), trace)
    assert [i.reason for i in items if isinstance(i, IngestError)] == ["malformed_record"] * 2 + [
        "invalid_field"
    ]
