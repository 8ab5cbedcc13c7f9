"""Windsurf and Trae: conversations kept under ItemTable keys of a VS Code fork's state.vscdb, read as snapshots."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from tests.harnesses.home import build_home
from tests.harnesses.run import events, normalize, read_items
from moraine.harnesses.trae.reader import TraeSessionsReader
from moraine.harnesses.windsurf.reader import WindsurfChatReader
from moraine.harness_api.model import EventType, IngestError, RawRecord, SessionInfo


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_home(tmp_path_factory.mktemp("state-home"), ["windsurf", "trae"])


def _databases(home: Path, product: str) -> list[Path]:
    return sorted((home / ".config" / product / "User" / "workspaceStorage").glob("*/state.vscdb"))


def _snapshot(harness: str, reader: WindsurfChatReader | TraeSessionsReader, database: Path) -> list[object]:
    records, _ = read_items(reader, database)
    return list(normalize(harness, records, database))


def test_windsurf_reads_a_vs_code_shaped_session_with_its_edited_file(home: Path) -> None:
    items = _snapshot("windsurf", WindsurfChatReader(), _databases(home, "Windsurf")[1])
    [info] = [i for i in items if isinstance(i, SessionInfo)]
    assert (info.title, info.cwd) == ("Plover nest tide warnings", "/home/dev/plover-log")
    [edit] = events(items, type=EventType.TOOL_CALL)
    assert edit.arguments == {"path": "/home/dev/plover-log/plover/tides.py"}
    assert [e.is_final_answer for e in events(items, type=EventType.ASSISTANT_RESPONSE)] == [False, True]


def test_windsurf_chat_tabs_become_titled_sessions_of_bubbles_dated_by_the_database(home: Path) -> None:
    database = _databases(home, "Windsurf")[0]
    items = _snapshot("windsurf", WindsurfChatReader(), database)
    assert [i.title for i in items if isinstance(i, SessionInfo)] == ["Tern colony count drift"]
    prompts = events(items, type=EventType.USER_INPUT)
    assert [p.text[:3] for p in prompts] == ["Why", "How"]  # rawText when text is absent
    answers = events(items, type=EventType.ASSISTANT_RESPONSE)
    assert [a.is_final_answer for a in answers] == [True, True]
    assert answers[0].timestamp is not None
    assert answers[0].timestamp.timestamp() == pytest.approx(os.stat(database).st_mtime)


def test_trae_sessions_read_agent_task_content_and_models(home: Path) -> None:
    items = _snapshot("trae", TraeSessionsReader(), _databases(home, "Trae")[0])
    assert [i.session for i in items if isinstance(i, SessionInfo)] == ["trae-7c41e2a9", "trae-0b9d57f3"]
    answers = events(items, session="trae-7c41e2a9", type=EventType.ASSISTANT_RESPONSE)
    assert answers[0].text.startswith("Load dives.csv") and not answers[0].is_final_answer
    assert [a.is_final_answer for a in answers] == [False, True, True]
    assert {a.model for a in answers} == {"doubao-seed-1.6"}
    prompts = events(items, type=EventType.USER_INPUT)
    assert all(p.timestamp is not None for p in prompts) and len(prompts) == 3


def _store(path: Path, key: str, value: object) -> Path:
    with sqlite3.connect(path) as connection:
        connection.execute(
            "CREATE TABLE IF NOT EXISTS ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)"
        )
        text = value if isinstance(value, str) else json.dumps(value)
        connection.execute("INSERT INTO ItemTable VALUES (?, ?)", (key, text))
    connection.close()
    return path


def test_a_snapshot_is_read_again_only_when_its_value_changes_and_emits_only_what_is_new(
    tmp_path: Path,
) -> None:
    key = "memento/icube-ai-agent-storage"
    first = {"sessionId": "s", "messages": [{"role": "user", "content": "one", "timestamp": 1789500000}]}
    database = _store(tmp_path / "state.vscdb", key, {"list": [first]})
    reader = TraeSessionsReader(settle_seconds=0)
    records, end = read_items(reader, database)
    assert end == 1 and read_items(reader, database, offset=end) == ([], 1)
    reply = {"role": "assistant", "content": "two", "timestamp": 1789500009}
    _store(database, key, {"list": [{**first, "messages": [*first["messages"], reply]}]})
    again, _ = read_items(reader, database, offset=end)
    out = normalize("trae", records + again, database)
    assert [e.text for e in events(out)] == ["one", "two"]


def test_the_newest_message_waits_while_the_database_is_being_written(tmp_path: Path) -> None:
    database = _store(
        tmp_path / "state.vscdb",
        "memento/icube-ai-agent-storage",
        {"list": [{"sessionId": "s", "messages": [{"role": "user", "content": "only"}]}]},
    )
    reader = TraeSessionsReader()
    busy, _ = read_items(reader, database)
    assert events(normalize("trae", busy, database)) == []
    assert reader.holding(database)  # read again on a later pass, when the database has settled


def test_bad_state_is_reported_not_raised(tmp_path: Path) -> None:
    not_state = tmp_path / "other.vscdb"
    with sqlite3.connect(not_state) as connection:
        connection.execute("CREATE TABLE cursorDiskKV (key TEXT, value BLOB)")
    connection.close()
    reader = WindsurfChatReader()
    [drift] = read_items(reader, not_state)[0]
    assert isinstance(drift, IngestError) and drift.reason == "schema_drift"
    assert read_items(reader, not_state)[0] == []
    broken = _store(tmp_path / "state.vscdb", "aiChat.chatdata", "{not json")
    [error] = read_items(reader, broken)[0]
    assert isinstance(error, IngestError) and error.reason == "malformed_row"
    bad = [
        RawRecord({"record": "windsurf_chatdata", "key": "aiChat.chatdata", "value": {"neither": 1}}, 1, 0),
        RawRecord({"record": "windsurf_chatdata", "value": {"tabs": [{"bubbles": []}]}}, 2, 1),
        RawRecord({"record": "trae_sessions", "value": {"list": [{"messages": []}]}}, 3, 2),
    ]
    assert [type(i).__name__ for i in normalize("windsurf", bad[:2], broken)] == ["IngestError"] * 2
    assert [type(i).__name__ for i in normalize("trae", bad[2:], broken)] == ["IngestError"]
