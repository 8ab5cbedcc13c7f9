"""NAC adapter and its SQLite reader: golden output, worker sessions, re-polling, locks and schema drift."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.harnesses.home import build_database, holding_lock
from tests.harnesses.run import read_items
from tests.harnesses.adapter_goldens import assert_golden, events, run_adapter

from moraine.harnesses.nac.adapter import NacAdapter
from moraine.harnesses.nac.reader import NacReader

HERE = Path(__file__).parent
HOME = HERE / "home"
SQL = HOME / ".nac/store.db.sql"


def build(path: Path, journal: str = "wal") -> Path:
    return build_database(SQL, path, journal)


def normalized(tmp_path: Path) -> list[dict]:
    db = build(tmp_path / "store.db")
    records, _ = read_items(NacReader(), db)
    return run_adapter(NacAdapter(), records, db, "nac")[0]


def test_nac_store_matches_golden(tmp_path: Path) -> None:
    assert_golden(normalized(tmp_path), HERE / "expected/store.golden.json")


def test_moraine_tool_calls_are_normalized_with_the_original_spelling_kept(tmp_path: Path) -> None:
    calls = [e for e in events(normalized(tmp_path)) if e["is_moraine_tool"]]
    assert [(e["type"], e["tool_name"]) for e in calls] == [
        ("tool_call", "search_sessions"),
        ("tool_response", "search_sessions"),
    ]
    assert {e["provenance"]["original_tool_name"] for e in calls} == {"mcp__moraine__search_sessions"}


def test_workers_are_sessions_linked_to_their_parent_and_remote_rows_are_skipped(tmp_path: Path) -> None:
    items = normalized(tmp_path)
    workers = [i for i in items if i["item"] == "session_info" and i["parent_session"]]
    assert [(w["session"], w["parent_session"]) for w in workers] == [
        ("nac-orchid:worker:repotter", "nac-orchid"),
        ("nac-orchid:worker:watering", "nac-orchid"),
    ]
    assert not any("REMOTE" in e["text"] for e in events(items))
    assert [i["reason"] for i in items if i["item"] == "ingest_error"] == [
        "malformed_row",
        "malformed_record",
        "unknown_record",
    ]


def test_a_rewritten_session_and_new_episodes_emit_only_what_is_new(tmp_path: Path) -> None:
    db = build(tmp_path / "store.db")
    reader = NacReader()
    records, end = read_items(reader, db)
    _, state = run_adapter(NacAdapter(), records, db, "nac")
    again, end_again = read_items(reader, db, end)
    assert events(run_adapter(NacAdapter(), again, db, "nac", state)[0]) == []
    writer = sqlite3.connect(db)
    writer.execute(
        "UPDATE sessions SET messages_json = json_insert(messages_json, '$[#]', json(?), '$[#]', json(?)),"
        " updated_at = '2026-07-20 08:10:00.000000000' WHERE session_id = 'nac-orchid'",
        ('{"role":"user","content":"And the Cattleya?"}', '{"role":"assistant","content":"Mist it weekly."}'),
    )
    writer.execute(
        "INSERT INTO episodes (thread_name, session_id, action, content, created_at)"
        " VALUES ('watering', 'nac-orchid', 'update plan', 'plan updated', '2026-07-20 08:11:00')"
    )
    writer.commit()
    writer.close()
    records, _ = read_items(reader, db, end_again)
    texts = [e["text"] for e in events(run_adapter(NacAdapter(), records, db, "nac", state)[0])]
    assert texts == ["And the Cattleya?", "Mist it weekly.", "update plan", "plan updated"]


_WRITES = """
c.execute("UPDATE sessions SET messages_json = json_insert(messages_json, '$[#]', json('{\\"role\\":\\"user\\","
          "\\"content\\":\\"typed under lock\\"}')), updated_at = '2026-07-21 00:00:00' WHERE session_id = 'nac-orchid'")
"""


def test_a_locked_store_is_retried_without_losing_rows(tmp_path: Path) -> None:
    db = build(tmp_path / "store.db", journal="delete")
    reader = NacReader()
    records, end = read_items(reader, db)
    _, state = run_adapter(NacAdapter(), records, db, "nac")
    with holding_lock(db, _WRITES) as commit:
        assert read_items(reader, db, end) == ([], end)
        commit()
        records, _ = read_items(reader, db, end)
    texts = [e["text"] for e in events(run_adapter(NacAdapter(), records, db, "nac", state)[0])]
    assert texts == ["typed under lock"]


def test_an_unknown_schema_is_reported_once(tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    connection = sqlite3.connect(db)
    connection.execute("CREATE TABLE sessions (id TEXT)")
    connection.commit()
    connection.close()
    reader = NacReader()
    assert [r.reason for r in read_items(reader, db)[0]] == ["schema_drift"]
    assert read_items(reader, db)[0] == []
