"""Omnigent: conversation items from chat.db (text-id and blob-id generations), normalized."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from moraine.harnesses.omnigent.chat_reader import OmnigentChatReader
from moraine.harness_api.model import Emitted, EventType, IngestError, SessionInfo
from tests.harnesses.home import build_database
from tests.harnesses.run import assert_reported_then_read, emitted, events, normalize_data

DUMP = Path(__file__).parent / "home" / ".omnigent" / "chat.db.sql"
ROOT, SCOUT = "0:conv_orchard01", "0:conv_scout02"
# The current generation: 16-byte blob ids, coded types, overrides on the conversation row, no agent_configuration.
BLOB_GENERATION = """
CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL);
CREATE TABLE conversations (id BLOB NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
    title VARCHAR(768) DEFAULT ('') NOT NULL, parent_conversation_id BLOB, root_conversation_id BLOB NOT NULL,
    next_position INTEGER, workspace_id BIGINT DEFAULT '0' NOT NULL, agent_id BLOB, session_overrides VARCHAR(512),
    archived BOOLEAN DEFAULT 0 NOT NULL, PRIMARY KEY (workspace_id, id));
CREATE TABLE omnigent_conversation_metadata (workspace_id BIGINT DEFAULT '0' NOT NULL, id BLOB NOT NULL,
    kind SMALLINT NOT NULL, sub_agent_name VARCHAR(128), external_session_id VARCHAR(128), session_usage BLOB,
    workspace VARCHAR(2048), git_branch VARCHAR(255), PRIMARY KEY (workspace_id, id));
CREATE TABLE conversation_items (id BLOB NOT NULL, conversation_id BLOB NOT NULL, response_id VARCHAR(64) NOT NULL,
    created_at INTEGER NOT NULL, position INTEGER NOT NULL, type SMALLINT NOT NULL, status SMALLINT NOT NULL,
    data TEXT NOT NULL, search_text TEXT NOT NULL, workspace_id BIGINT DEFAULT '0' NOT NULL,
    PRIMARY KEY (workspace_id, conversation_id, id, created_at));
INSERT INTO conversations VALUES (X'0f1e2d3c4b5a69788796a5b4c3d2e1f0', 1760000000, 1760000100, 'Hive scale',
    NULL, X'0f1e2d3c4b5a69788796a5b4c3d2e1f0', 3, 7, NULL, '{"model_override": "gpt-5-codex"}', 0);
INSERT INTO omnigent_conversation_metadata VALUES (7, X'0f1e2d3c4b5a69788796a5b4c3d2e1f0', 1, NULL, NULL, NULL,
    '/home/dev/projects/hive', NULL);
INSERT INTO conversation_items VALUES (X'01', X'0f1e2d3c4b5a69788796a5b4c3d2e1f0', 'r1', 1760000010, 0, 1, 1,
    '{"role": "user", "content": [{"type": "input_text", "text": "weigh the hive"}]}', 'weigh the hive', 7);
INSERT INTO conversation_items VALUES (X'02', X'0f1e2d3c4b5a69788796a5b4c3d2e1f0', 'r1', 1760000020, 1, 10, 1,
    '{"model": "polly", "kind": "skill", "name": "calibrate", "arguments": ""}', '', 7);
"""


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return build_database(DUMP, tmp_path / "chat.db")


def _of(items: list[Emitted], session: str) -> list[Emitted]:
    return [i for i in items if getattr(i, "session", None) == session]


def test_conversations_give_title_workspace_model_and_parent(database: Path) -> None:
    items = emitted("omnigent", "omnigent_sqlite", database)
    assert not [i for i in items if isinstance(i, IngestError)]
    root = [i for i in _of(items, ROOT) if isinstance(i, SessionInfo)][0]
    assert (root.title, root.cwd, root.model) == (
        "Orchard irrigation valves",
        "/home/dev/projects/orchard",
        "claude-opus-4-1",
    )
    scout = [i for i in _of(items, SCOUT) if isinstance(i, SessionInfo)]
    assert {(i.title, i.cwd) for i in scout if i.title} == {("scout", "/home/dev/projects/orchard")}
    assert {i.parent_session for i in scout if i.parent_session} == {ROOT}


def test_items_become_calls_outputs_reasoning_and_system_lines(database: Path) -> None:
    items = _of(emitted("omnigent", "omnigent_sqlite", database), ROOT)
    calls = events(items, EventType.TOOL_CALL)
    assert [(c.tool_name, c.tool_call_id) for c in calls] == [
        ("sys_os_shell", "toolu_o1"),
        ("sys_edit_file", "toolu_o2"),
    ]
    assert calls[1].arguments["path"] == "/home/dev/projects/orchard/irrigation/schedule.py"
    responses = events(items, EventType.TOOL_RESPONSE)
    assert [(r.tool_name, r.tool_call_id) for r in responses] == [
        ("sys_os_shell", "toolu_o1"),
        ("sys_edit_file", "toolu_o2"),
    ]
    assert [s.text for s in events(items, EventType.SYSTEM)] == [
        "Skill: always run the tests after an edit.",
        "[error] test runner timed out after 120 s",
    ]
    assert [u.starts_turn for u in events(items, EventType.USER_INPUT)] == [True]
    assert len(events(items, EventType.REASONING)) == 1
    answers = events(items, EventType.ASSISTANT_RESPONSE)
    assert [(a.is_final_answer, a.terminal) for a in answers] == [(True, False)]


def test_the_blob_id_generation_is_read_with_coded_types_and_overrides(tmp_path: Path) -> None:
    database = tmp_path / "chat.db"
    with sqlite3.connect(database) as connection:
        connection.executescript(BLOB_GENERATION)
    connection.close()
    items = emitted("omnigent", "omnigent_sqlite", database)
    session = "7:0f1e2d3c4b5a69788796a5b4c3d2e1f0"
    infos = [i for i in items if isinstance(i, SessionInfo)]
    assert [(i.session, i.title, i.cwd, i.model) for i in infos] == [
        (session, "Hive scale", "/home/dev/projects/hive", "gpt-5-codex")
    ]
    assert [(e.type, e.text) for e in events(items)] == [
        (EventType.USER_INPUT, "weigh the hive"),
        (EventType.SYSTEM, "[skill] calibrate"),
    ]
    assert events(items)[0].timestamp is not None


def test_items_after_the_saved_position_only_and_a_broken_row_is_reported(database: Path) -> None:
    reader = OmnigentChatReader()
    first = list(reader.read(database, 0, 0))
    with sqlite3.connect(database) as connection:
        row = ("conv_orchard01", "itm_10", 9, 1, "{not json", "")
        connection.execute(
            "INSERT INTO conversation_items (conversation_id, id, position, type, data, search_text) VALUES (?, ?, ?, ?, ?, ?)",
            row,
        )
        data = json.dumps({"role": "user", "content": [{"type": "input_text", "text": "and valve 4?"}]})
        connection.execute(
            "INSERT INTO conversation_items (conversation_id, id, position, type, data, search_text) VALUES (?, ?, ?, ?, ?, ?)",
            ("conv_orchard01", "itm_11", 10, 1, data, ""),
        )
    connection.close()
    rest = list(reader.read(database, first[-1].end, first[-1].end_line))
    assert [i.error.reason for i in rest if i.error] == ["malformed_row"]
    assert [i.record.data["item"]["position"] for i in rest if i.record] == [10]


def test_malformed_omnigent_records_become_ingest_errors_not_crashes(tmp_path: Path) -> None:
    conversation = {"id": ROOT, "started": 1757325600}
    items = normalize_data(
        "omnigent",
        [
            {"record": "omnigent_item", "conversation": {}, "item": {"type": 1}},
            {"record": "omnigent_other"},
            {
                "record": "omnigent_item",
                "conversation": conversation,
                "item": {"type": 1, "data": {"role": "robot"}},
            },
            {
                "record": "omnigent_item",
                "conversation": conversation,
                "item": {
                    "type": "message",
                    "created_at": "sometime",
                    "data": {"role": "user", "content": [{"type": "input_text", "text": "still read"}]},
                },
            },
        ],
        tmp_path / "chat.db",
    )
    assert_reported_then_read(
        items, ["still read"], "malformed_record", "unknown_record", "unknown_record", "timestamp_parse_error"
    )
