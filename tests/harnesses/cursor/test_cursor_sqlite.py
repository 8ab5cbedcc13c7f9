"""Cursor IDE chat store (source cursor-sqlite): reader + adapter goldens, polling, locks and schema drift."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.harnesses.home import build_database, holding_lock
from tests.harnesses.run import read_items
from tests.harnesses.adapter_goldens import assert_golden, events, run_adapter

from moraine.harnesses.cursor.adapter import CursorAdapter
from moraine.harness_api.model import IngestError
from moraine.harnesses.cursor.reader import CursorSqliteReader

HERE = Path(__file__).parent
HOME = HERE / "home"
SQL = HOME / ".config/Cursor/User/globalStorage/state.vscdb.sql"
COMPOSER = "c0ffee00-1111-4222-8333-444455556666"
NOW = 1780300090.0 + 3600  # an hour after the last update: every chat is settled


def build(path: Path, journal: str = "wal") -> Path:
    return build_database(SQL, path, journal)


def test_cursor_store_matches_golden(tmp_path: Path) -> None:
    db = build(tmp_path / "state.vscdb")
    records, _ = read_items(CursorSqliteReader(clock=lambda: NOW), db)
    items, _ = run_adapter(CursorAdapter(), records, db, "cursor-sqlite")
    assert_golden(items, HERE / "expected/state_vscdb.golden.json")


def test_composer_title_and_turn_end_marker_are_used(tmp_path: Path) -> None:
    db = build(tmp_path / "state.vscdb")
    records, _ = read_items(CursorSqliteReader(clock=lambda: NOW), db)
    items, _ = run_adapter(CursorAdapter(), records, db, "cursor-sqlite")
    info = next(i for i in items if i["item"] == "session_info" and i["session"] == COMPOSER)
    assert (info["title"], info["summary"], info["cwd"]) == (
        "Glaze recipe converter",
        "Edited glaze.py",
        "/home/dev/pottery",
    )
    finals = [e["text"] for e in events(items) if e["is_final_answer"] and e["terminal"]]
    assert finals == ["Legacy answer.", "Converted; one rounding test still fails."]
    assert not any("NOT_INDEXED" in e["text"] for e in events(items))


def test_repolling_emits_only_new_bubbles_and_waits_for_the_one_being_written(tmp_path: Path) -> None:
    db = build(tmp_path / "state.vscdb")
    clock = [NOW]
    reader = CursorSqliteReader(clock=lambda: clock[0])
    records, end = read_items(reader, db)
    first, state = run_adapter(CursorAdapter(), records, db, "cursor-sqlite")
    # The chat goes on: a new user bubble is answered while Cursor is still writing the answer.
    writer = sqlite3.connect(db)
    writer.execute(
        "UPDATE cursorDiskKV SET value = json_set(json_set(value, '$.status', 'generating'),"
        " '$.lastUpdatedAt', 1780300200000, '$.fullConversationHeadersOnly[#]', json('{\"bubbleId\":\"b-8\",\"type\":1}'),"
        ' \'$.fullConversationHeadersOnly[#]\', json(\'{"bubbleId":"b-9","type":2}\')) WHERE key = ?',
        (f"composerData:{COMPOSER}",),
    )
    writer.execute(
        "INSERT INTO cursorDiskKV VALUES (?, ?), (?, ?)",
        (
            f"bubbleId:{COMPOSER}:b-8",
            '{"type":1,"text":"Round to one decimal."}',
            f"bubbleId:{COMPOSER}:b-9",
            '{"type":2,"text":"Rounding to one dec"}',
        ),
    )
    writer.commit()
    clock[0] = 1780300200.0 + 1  # one second after the update: the last bubble is still being written
    records, end2 = read_items(reader, db, end)
    second, state = run_adapter(CursorAdapter(), records, db, "cursor-sqlite", state)
    assert [e["text"] for e in events(second)] == ["Round to one decimal."]
    assert end2 == 1780300200000
    writer.execute(
        "UPDATE cursorDiskKV SET value = ? WHERE key = ?",
        ('{"type":2,"text":"Rounding to one decimal now.","turnDurationMs":900}', f"bubbleId:{COMPOSER}:b-9"),
    )
    writer.execute(
        "UPDATE cursorDiskKV SET value = json_set(value, '$.status', 'completed') WHERE key = ?",
        (f"composerData:{COMPOSER}",),
    )
    writer.commit()
    writer.close()
    records, _ = read_items(reader, db, end2)
    third, _ = run_adapter(CursorAdapter(), records, db, "cursor-sqlite", state)
    assert [(e["text"], e["is_final_answer"]) for e in events(third)] == [
        ("Rounding to one decimal now.", True)
    ]
    assert len(events(first)) == 10


_WRITES = """
c.execute("INSERT INTO cursorDiskKV VALUES ('composerData:abc00000-0000-4000-8000-000000000001', "
          "'{\\"name\\":\\"Locked chat\\",\\"status\\":\\"completed\\",\\"lastUpdatedAt\\":1780400000000,"
          "\\"fullConversationHeadersOnly\\":[{\\"bubbleId\\":\\"x\\",\\"type\\":1}]}')")
c.execute("INSERT INTO cursorDiskKV VALUES ('bubbleId:abc00000-0000-4000-8000-000000000001:x', "
          "'{\\"type\\":1,\\"text\\":\\"written under lock\\"}')")
"""


def test_locked_database_mid_write_yields_nothing_then_every_row_once_committed(tmp_path: Path) -> None:
    db = build(tmp_path / "state.vscdb", journal="delete")
    reader = CursorSqliteReader(clock=lambda: 1780400000.0 + 3600)
    records, end = read_items(reader, db)
    baseline = len(records)
    with holding_lock(db, _WRITES) as commit:
        during, end_during = read_items(reader, db, end)
        assert during == [] and end_during == end  # locked: nothing read, position kept, no exception
        commit()
        after, _ = read_items(reader, db, end)
    items, _ = run_adapter(CursorAdapter(), after, db, "cursor-sqlite")
    assert "written under lock" in [e["text"] for e in events(items)]
    assert baseline > 0


def test_schema_drift_is_reported_once_and_never_crashes(tmp_path: Path) -> None:
    db = tmp_path / "state.vscdb"
    connection = sqlite3.connect(db)
    connection.execute("CREATE TABLE cursorDiskKV (k TEXT, v BLOB)")
    connection.commit()
    connection.close()
    reader = CursorSqliteReader()
    first, _ = read_items(reader, db)
    second, _ = read_items(reader, db)
    assert [type(r) for r in first] == [IngestError] and first[0].reason == "schema_drift"
    assert second == []
