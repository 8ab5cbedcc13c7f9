"""Mistral Vibe: messages.jsonl lines with the session's meta.json, normalized."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from moraine.harness_api.model import EventType, IngestError, SessionInfo
from tests.harnesses.run import assert_reported_then_read, emitted, events, normalize_data

FOLDER = Path(__file__).parent / "home/.vibe/logs/session/session_20251102_141503_9e4c1a27"
SESSION = "9e4c1a27-3b6d-4f80-a1c2-5d7e9f0b2c44"


def test_meta_json_gives_id_title_directory_model_and_start() -> None:
    items = emitted("mistral-vibe", "vibe_session", FOLDER / "messages.jsonl")
    infos = [i for i in items if isinstance(i, SessionInfo)]
    assert [(i.session, i.title, i.cwd, i.model) for i in infos] == [
        (SESSION, "Wine cellar humidity alarm", "/home/dev/projects/cellar", "devstral-medium-2507")
    ]
    assert {e.session for e in events(items)} == {SESSION}
    assert {e.timestamp.isoformat() for e in events(items) if e.timestamp} == {"2025-11-02T14:15:03+00:00"}


def test_tool_calls_link_to_tool_messages_and_injected_prompts_are_system_text() -> None:
    items = emitted("mistral-vibe", "vibe_session", FOLDER / "messages.jsonl")
    assert not [i for i in items if isinstance(i, IngestError)]
    calls = events(items, EventType.TOOL_CALL)
    assert [(c.tool_name, c.tool_call_id, c.model) for c in calls] == [
        ("bash", "call_v1", "devstral-medium-2507"),
        ("search_replace", "call_v2", "devstral-medium-2507"),
    ]
    assert calls[0].arguments == {"command": "grep -n HUMIDITY cellar/alarms.py"}
    responses = events(items, EventType.TOOL_RESPONSE)
    assert [(r.tool_name, r.tool_call_id) for r in responses] == [
        ("bash", "call_v1"),
        ("search_replace", "call_v2"),
    ]
    assert [u.starts_turn for u in events(items, EventType.USER_INPUT)] == [True]
    assert [s.provenance.get("injected") for s in events(items, EventType.SYSTEM)] == [None, True]
    assert [r.text[:20] for r in events(items, EventType.REASONING)] == ["The comparison might"]
    final = [a.text[:20] for a in events(items, EventType.ASSISTANT_RESPONSE) if a.is_final_answer]
    assert final == ["Readings are in perc"]


def test_without_meta_json_the_folder_names_the_session(tmp_path: Path) -> None:
    folder = tmp_path / FOLDER.name
    folder.mkdir()
    shutil.copy(FOLDER / "messages.jsonl", folder / "messages.jsonl")
    items = emitted("mistral-vibe", "vibe_session", folder / "messages.jsonl")
    assert {e.session for e in events(items)} == {FOLDER.name}
    assert len(events(items, EventType.TOOL_CALL)) == 2


def test_malformed_vibe_records_become_ingest_errors_not_crashes(tmp_path: Path) -> None:
    folder = tmp_path / "session_x"
    folder.mkdir()
    lines = [
        '{"role": "user", "content": "still read"}',
        "not json",
        '{"role": "narrator", "content": "x"}',
        "[1, 2]",
    ]
    (folder / "messages.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "meta.json").write_text(
        json.dumps({"session_id": "s1", "start_time": "whenever"}), encoding="utf-8"
    )
    items = emitted("mistral-vibe", "vibe_session", folder / "messages.jsonl")
    assert_reported_then_read(
        items, ["still read"], "timestamp_parse_error", "invalid_json", "unknown_record", "malformed_record"
    )
    broken = normalize_data(
        "mistral-vibe", [{"record": "vibe_message", "session": {}, "message": {"role": "user"}}], folder
    )
    assert [i.reason for i in broken if isinstance(i, IngestError)] == ["malformed_record"]
