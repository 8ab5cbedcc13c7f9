"""Devin CLI: transcripts read by step with the session row from sessions.db, normalized."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from moraine.harness_api.model import EventType, IngestError, SessionInfo
from tests.harnesses.home import build_database
from tests.harnesses.run import assert_reported_then_read, emitted, events, normalize_data

CLI = Path(__file__).parent / "home" / ".local" / "share" / "devin" / "cli"
SESSION = "d3v1n-5e55-4b2a-8f00-c0ffee000042"


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    shutil.copytree(CLI / "transcripts", tmp_path / "transcripts")
    build_database(CLI / "sessions.db.sql", tmp_path / "sessions.db")
    return tmp_path / "transcripts" / f"{SESSION}.json"


def test_the_session_row_gives_title_directory_model_and_start(transcript: Path) -> None:
    infos = [i for i in emitted("devin-cli", "devin_transcript", transcript) if isinstance(i, SessionInfo)]
    assert [(i.session, i.title, i.cwd, i.model) for i in infos] == [
        (SESSION, "Weather station rain gauge", "/home/dev/projects/weatherstation", "claude-opus-4-1")
    ]
    assert infos[0].started_at is not None and infos[0].started_at.isoformat() == "2025-10-20T10:00:00+00:00"


def test_without_sessions_db_the_transcript_alone_is_read(tmp_path: Path) -> None:
    shutil.copytree(CLI / "transcripts", tmp_path / "transcripts")
    items = emitted("devin-cli", "devin_transcript", tmp_path / "transcripts" / f"{SESSION}.json")
    infos = [i for i in items if isinstance(i, SessionInfo)]
    assert [(i.title, i.model) for i in infos] == [(None, "claude-opus-4-1")]
    assert len(events(items, EventType.TOOL_CALL)) == 2


def test_steps_give_calls_results_usage_and_the_final_answer(transcript: Path) -> None:
    items = emitted("devin-cli", "devin_transcript", transcript)
    assert not [i for i in items if isinstance(i, IngestError)]
    calls = events(items, EventType.TOOL_CALL)
    assert [(c.tool_name, c.tool_call_id) for c in calls] == [
        ("shell_command", "tu_grep"),
        ("edit_file", "tu_edit"),
    ]
    responses = events(items, EventType.TOOL_RESPONSE)
    assert [(r.tool_name, r.tool_call_id, r.text) for r in responses] == [
        ("shell_command", "tu_grep", "firmware/rain.c:31: attachInterrupt(TIP_PIN, on_tip, CHANGE);"),
        ("edit_file", "tu_edit", "Applied 1 edit to firmware/rain.c"),
    ]
    usage = [e.usage for e in events(items) if e.usage]
    assert [(u.input, u.output, u.cache_read) for u in usage] == [
        (1200, 140, 5000),
        (300, 95, 6200),
        (200, 52, 6500),
    ]
    assert [u.starts_turn for u in events(items, EventType.USER_INPUT)] == [True]
    final = [a.text[:16] for a in events(items, EventType.ASSISTANT_RESPONSE) if a.is_final_answer]
    assert final == ["The interrupt fi"]
    assert [s.text[:15] for s in events(items, EventType.SYSTEM)] == ["Session started"]


def test_malformed_devin_records_become_ingest_errors_not_crashes(tmp_path: Path) -> None:
    session = {"id": SESSION}
    items = normalize_data(
        "devin-cli",
        [
            {"record": "devin_step", "session": {}, "step": {"source": "user"}},
            {"record": "devin_other"},
            {"record": "devin_step", "session": session, "step": {"source": "narrator", "message": "x"}},
            {
                "record": "devin_step",
                "session": session,
                "step": {"source": "user", "timestamp": "dawn", "message": "still read"},
            },
        ],
        tmp_path / "transcripts" / f"{SESSION}.json",
    )
    assert_reported_then_read(
        items, ["still read"], "malformed_record", "unknown_record", "unknown_record", "timestamp_parse_error"
    )


def test_message_nodes_are_read_for_visible_sessions_without_a_transcript(transcript: Path) -> None:
    items = emitted("devin-cli", "devin_nodes", transcript.parent.parent / "sessions.db", "devin-cli-nodes")
    assert not [i for i in items if isinstance(i, IngestError)]
    session = "d3v1n-0a0b-4c0d-9e0f-bee5000000a1"
    assert {e.session for e in events(items)} == {session}
    infos = [i for i in items if isinstance(i, SessionInfo)]
    assert [(i.title, i.cwd, i.model) for i in infos] == [
        ("Bee counter calibration", "/home/dev/projects/beecounter", "swe-1.5")
    ]
    assert [(e.type, e.tool_name) for e in events(items)] == [
        (EventType.USER_INPUT, None),
        (EventType.REASONING, None),
        (EventType.TOOL_CALL, "edit"),
        (EventType.TOOL_RESPONSE, "edit"),
        (EventType.ASSISTANT_RESPONSE, None),
    ]
    assert events(items)[-1].is_final_answer
