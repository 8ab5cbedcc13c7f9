"""Goose: the legacy JSONL session files and the sessions.db store, read by the harness's own reader and adapter."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.harnesses.home import build_database
from tests.harnesses.run import emitted, events, normalize_data

from moraine.ingest.adapters import reader_for
from moraine.harness_api.model import Emitted, EventType, IngestError, SessionInfo, TerminalKind

SESSIONS = Path(__file__).parent / "home" / ".local" / "share" / "goose" / "sessions"
LEGACY = SESSIONS / "20250612_143000.jsonl"


def _store(tmp_path: Path) -> list[Emitted]:
    database = build_database(SESSIONS / "sessions.db.sql", tmp_path / "sessions.db")
    return emitted("goose", "goose_sqlite", database, "goose-sqlite")


def test_a_legacy_session_file_gives_its_description_as_title_and_its_name_as_session() -> None:
    items = emitted("goose", "jsonl", LEGACY)
    infos = [i for i in items if isinstance(i, SessionInfo)]
    assert [(i.session, i.title, i.cwd) for i in infos] == [
        ("20250612_143000", "Hive scale drift", "/home/dev/projects/beehive")
    ]
    assert not [i for i in items if isinstance(i, IngestError)]
    assert {e.session for e in events(items)} == {"20250612_143000"}


def test_legacy_tool_requests_and_responses_are_linked_by_call_id_and_named() -> None:
    items = emitted("goose", "jsonl", LEGACY)
    calls = events(items, EventType.TOOL_CALL)
    responses = events(items, EventType.TOOL_RESPONSE)
    assert [(c.tool_name, c.tool_call_id) for c in calls] == [
        ("developer__shell", "toolu_01"),
        ("developer__text_editor", "toolu_02"),
    ]
    assert calls[1].arguments["path"] == "/home/dev/projects/beehive/src/scale.py"
    assert [(r.tool_name, r.tool_call_id) for r in responses] == [
        ("developer__shell", "toolu_01"),
        ("developer__text_editor", "toolu_02"),
    ]
    assert "read_tare()" in responses[0].text


def test_only_the_prompt_opens_a_turn_and_the_last_text_is_the_final_answer() -> None:
    items = emitted("goose", "jsonl", LEGACY)
    users = events(items, EventType.USER_INPUT)
    assert [u.starts_turn for u in users] == [True]
    answers = events(items, EventType.ASSISTANT_RESPONSE)
    assert [a.is_final_answer for a in answers] == [False, True]
    assert answers[-1].terminal_kind is TerminalKind.FINAL_RESPONSE


def test_the_store_announces_the_session_with_name_model_cwd_and_start(tmp_path: Path) -> None:
    items = _store(tmp_path)
    infos = [i for i in items if isinstance(i, SessionInfo)]
    assert len(infos) == 1
    info = infos[0]
    assert (info.session, info.title, info.model, info.cwd) == (
        "20251104_3",
        "Kiln firing schedule",
        "claude-sonnet-4-5",
        "/home/dev/projects/kiln",
    )
    assert info.started_at is not None and info.started_at.isoformat() == "2025-11-04T09:12:00+00:00"


def test_the_store_reads_thinking_errors_and_leaves_hidden_context_out(tmp_path: Path) -> None:
    items = _store(tmp_path)
    assert not [i for i in items if isinstance(i, IngestError)]
    reasoning = events(items, EventType.REASONING)
    assert [r.text[:20] for r in reasoning] == ["The segment list is "]
    assert all("Context: the working directory" not in e.text for e in events(items))
    failed = [r for r in events(items, EventType.TOOL_RESPONSE) if r.tool_error]
    assert [(r.tool_name, r.tool_call_id) for r in failed] == [("developer__shell", "call_test")]
    assert "exit code 1" in failed[0].text
    assert {e.model for e in events(items, EventType.TOOL_CALL)} == {"claude-sonnet-4-5"}
    final = [a for a in events(items, EventType.ASSISTANT_RESPONSE) if a.is_final_answer]
    assert len(final) == 1 and final[0].text.startswith("Added the slow cool segment")


def test_a_store_row_with_broken_content_is_reported_and_the_rest_is_read(tmp_path: Path) -> None:
    database = build_database(SESSIONS / "sessions.db.sql", tmp_path / "sessions.db")
    connection = sqlite3.connect(database)
    connection.execute("UPDATE messages SET content_json = '[{broken' WHERE message_id = 'm3'")
    connection.commit()
    connection.close()
    items = emitted("goose", "goose_sqlite", database, "goose-sqlite")
    errors = [i for i in items if isinstance(i, IngestError)]
    assert [e.reason for e in errors] == ["malformed_row"]
    assert len(events(items, EventType.TOOL_CALL)) == 3


def test_a_store_without_the_messages_table_is_reported_once(tmp_path: Path) -> None:
    database = tmp_path / "sessions.db"
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE sessions (id TEXT, working_dir TEXT, created_at TEXT)")
    connection.close()
    reader = reader_for("goose_sqlite")
    assert reader is not None
    first = list(reader.read(database, 0, 0))
    second = list(reader.read(database, 0, 0))
    assert [i.error.reason for i in first if i.error] == ["schema_drift"]
    assert second == []


def test_malformed_goose_records_become_ingest_errors_not_crashes(tmp_path: Path) -> None:
    items = normalize_data(
        "goose",
        [
            ["not", "an", "object"],
            {"unexpected": True},
            {"role": "assistant", "created": 1749738600, "content": "not a list"},
            {"role": "robot", "created": 1749738600, "content": []},
            {"role": "user", "created": "yesterday", "content": [{"type": "text", "text": "still read"}]},
            {"record": "goose_message", "session": {}, "message": {}},
        ],
        tmp_path / "broken.jsonl",
    )
    reasons = [i.reason for i in items if isinstance(i, IngestError)]
    assert reasons == [
        "malformed_record",
        "unknown_record",
        "malformed_record",
        "unknown_record",
        "timestamp_parse_error",
        "malformed_record",
    ]
    assert [e.text for e in events(items)] == ["still read"]


def test_a_thought_streamed_a_token_a_block_is_one_reasoning_event(tmp_path: Path) -> None:
    # Goose stores a streamed reply as one message whose thinking arrives one block per token (issue 44).
    tokens = ["Okay", ",", " the", " kiln", " cools", " too", " fast", "."]
    blocks = [{"type": "thinking", "thinking": t, "signature": ""} for t in tokens]
    blocks += [{"type": "text", "text": "Slow"}, {"type": "text", "text": " the cool."}]
    database = build_database(SESSIONS / "sessions.db.sql", tmp_path / "sessions.db")
    with sqlite3.connect(database) as connection:
        connection.execute(
            "INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json) "
            "VALUES ('m10', '20251104_3', 'assistant', ?, 1762247700, '{\"userVisible\":true}')",
            (json.dumps(blocks),),
        )
    connection.close()
    items = emitted("goose", "goose_sqlite", database, "goose-sqlite")
    streamed = [e for e in events(items) if e.provenance.get("message_id") == 10]
    assert [(e.type, e.text) for e in streamed] == [
        (EventType.REASONING, "Okay, the kiln cools too fast."),
        (EventType.ASSISTANT_RESPONSE, "Slow the cool."),
    ]
    assert streamed[-1].is_final_answer
