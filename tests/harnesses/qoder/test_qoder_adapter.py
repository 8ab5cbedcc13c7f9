"""Qoder transcripts: Claude Code's format with the session sidecar's title, directory and fork parent."""

from __future__ import annotations

import json
from pathlib import Path

from tests.harnesses.run import events, normalize_file

from moraine.harnesses.qoder.adapter import QoderAdapter
from moraine.harness_api.adapter import StreamContext
from moraine.harness_api.model import EventType, IngestError, SessionInfo

PROJECT = Path(__file__).resolve().parent / "home" / ".qoder" / "projects" / "-home-dev-orchard"
SESSION = "6a1d3f90-2c4b-4e7a-b8d5-3f0e9c1a2b47"


def test_a_transcript_takes_its_title_and_directory_from_the_sidecar() -> None:
    items, _ = normalize_file(QoderAdapter(), PROJECT / f"{SESSION}.jsonl")
    infos = [i for i in items if isinstance(i, SessionInfo) and i.title]
    assert [(i.session, i.title, i.cwd) for i in infos] == [
        (SESSION, "Float harvest weights", "/home/dev/orchard")
    ]
    found = events(items)
    call = next(e for e in found if e.type is EventType.TOOL_CALL)
    assert (call.tool_name, call.arguments["file_path"]) == ("Edit", "/home/dev/orchard/yield.py")
    assert found[-1].is_final_answer and found[-1].model == "qoder-max"


def test_the_sidecar_is_read_again_when_it_changes_and_a_fork_names_its_parent(tmp_path: Path) -> None:
    transcript = tmp_path / f"{SESSION}.jsonl"
    transcript.write_bytes((PROJECT / f"{SESSION}.jsonl").read_bytes())
    sidecar = tmp_path / f"{SESSION}-session.json"
    sidecar.write_text(json.dumps({"title": "First"}))
    ctx = StreamContext(transcript, "qoder")
    first, _ = normalize_file(QoderAdapter(), transcript, ctx)
    assert [i.title for i in first if isinstance(i, SessionInfo) and i.title] == ["First"]
    sidecar.write_text(json.dumps({"title": "Renamed", "fork_from": "0000-parent"}))
    again, _ = normalize_file(QoderAdapter(), transcript, ctx)
    infos = [i for i in again if isinstance(i, SessionInfo) and i.title]
    assert [(i.title, i.parent_session) for i in infos] == [("Renamed", "0000-parent")]


def test_a_sub_agent_transcript_is_its_own_session_under_its_parent() -> None:
    items, _ = normalize_file(QoderAdapter(), PROJECT / SESSION / "subagents" / "agent-3b9e.jsonl")
    assert {e.session for e in events(items)} == {f"{SESSION}:3b9e"}
    assert not [i for i in items if isinstance(i, SessionInfo) and i.title]


def test_bad_records_and_sidecars_are_reported_or_ignored(tmp_path: Path) -> None:
    transcript = tmp_path / "s.jsonl"
    transcript.write_text('17\n{"type":"user","sessionId":"s","message":{"role":"user","content":"hi"}}\n')
    (tmp_path / "s-session.json").write_text("{not json")
    items, _ = normalize_file(QoderAdapter(), transcript)
    assert [i.reason for i in items if isinstance(i, IngestError)] == ["malformed_record"]
    assert [e.text for e in events(items)] == ["hi"]
