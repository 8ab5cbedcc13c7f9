"""OpenCode adapter and its SQLite reader: golden output, settled-part polling, locks and schema drift."""

from __future__ import annotations

import sqlite3
from pathlib import Path


from tests.harnesses.home import build_database, holding_lock, search
from tests.harnesses.run import read_items
from tests.harnesses.adapter_goldens import assert_golden, events, run_adapter

from moraine.harnesses._shared.opencode_format.adapter import OpenCodeAdapter
from moraine.harnesses._shared.opencode_format.reader import OpenCodeReader

HERE = Path(__file__).parent
HOME = HERE / "home"
SQL = HOME / ".local/share/opencode/opencode.db.sql"
LATER = 1781000090.0 + 3600


def build(path: Path, journal: str = "wal") -> Path:
    return build_database(SQL, path, journal)


def normalized(tmp_path: Path) -> list[dict]:
    db = build(tmp_path / "opencode.db")
    records, _ = read_items(OpenCodeReader(clock=lambda: LATER), db)
    return run_adapter(OpenCodeAdapter(), records, db, "opencode")[0]


def test_opencode_store_matches_golden(tmp_path: Path) -> None:
    assert_golden(normalized(tmp_path), HERE / "expected/opencode.golden.json")


def test_titles_parents_and_completion_come_from_the_store(tmp_path: Path) -> None:
    items = normalized(tmp_path)
    infos = {i["session"]: i for i in items if i["item"] == "session_info"}
    assert infos["ses_parent01"]["title"] == "Aquarium pump schedule"
    assert infos["ses_child001"]["parent_session"] == "ses_parent01"
    finals = [(e["session"], e["text"]) for e in events(items) if e["is_final_answer"]]
    assert finals == [
        ("ses_parent01", "It stays off during the day."),
        ("ses_child001", "No pump errors in the last week."),
    ]
    bash = [e for e in events(items) if e["tool_name"] == "bash"]
    assert [(e["type"], e["exit_code"]) for e in bash] == [("tool_call", None), ("tool_response", 0)]
    assert all(e["sidechain"] for e in events(items) if e["session"] == "ses_child001")


def test_parts_of_a_message_still_streaming_wait_until_it_completes(tmp_path: Path) -> None:
    db = build(tmp_path / "opencode.db")
    clock = [LATER]
    reader = OpenCodeReader(clock=lambda: clock[0])
    records, end = read_items(reader, db)
    _, state = run_adapter(OpenCodeAdapter(), records, db, "opencode")
    writer = sqlite3.connect(db)
    writer.execute(
        "INSERT INTO message VALUES ('msg_a3', 'ses_parent01', 1781000100000, 1781000100000,"
        ' \'{"role":"assistant","modelID":"claude-sonnet-4-5","time":{"created":1781000100000}}\')'
    )
    writer.execute(
        "INSERT INTO part VALUES ('prt_20', 'msg_a3', 'ses_parent01', 1781000100000, 1781000100000,"
        ' \'{"type":"text","text":"Half a sen"}\')'
    )
    writer.commit()
    clock[0] = 1781000100.0 + 1
    waiting, end_waiting = read_items(reader, db, end)
    assert waiting == [] and end_waiting == end
    writer.execute(
        'UPDATE part SET data = \'{"type":"text","text":"Half a sentence, now whole."}\' WHERE id = \'prt_20\''
    )
    writer.execute(
        "UPDATE message SET data = json_set(data, '$.finish', 'stop', '$.time.completed', 1781000101000)"
        " WHERE id = 'msg_a3'"
    )
    writer.commit()
    writer.close()
    records, _ = read_items(reader, db, end)
    items, _ = run_adapter(OpenCodeAdapter(), records, db, "opencode", state)
    assert [(e["text"], e["is_final_answer"]) for e in events(items)] == [
        ("Half a sentence, now whole.", True)
    ]
    assert not [i for i in items if i["item"] == "session_info"]  # title unchanged: not announced again


_WRITES = """
c.execute("INSERT INTO part VALUES ('prt_30', 'msg_c1', 'ses_child001', 1781000030000, 1781000030000, "
          "'{\\"type\\":\\"text\\",\\"text\\":\\"typed while locked\\"}')")
"""


def test_a_database_locked_mid_write_is_retried_without_losing_rows(tmp_path: Path) -> None:
    db = build(tmp_path / "opencode.db", journal="delete")
    reader = OpenCodeReader(clock=lambda: LATER)
    records, end = read_items(reader, db)
    assert records
    with holding_lock(db, _WRITES) as commit:
        assert read_items(reader, db, end) == ([], end)
        commit()
        after, _ = read_items(reader, db, end)
    texts = [e["text"] for e in events(run_adapter(OpenCodeAdapter(), after, db, "opencode")[0])]
    assert texts == ["typed while locked"]


def test_an_unknown_schema_is_reported_once(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    connection = sqlite3.connect(db)
    connection.execute("CREATE TABLE part (id text, payload text)")
    connection.commit()
    connection.close()
    reader = OpenCodeReader()
    first, _ = read_items(reader, db)
    assert [r.reason for r in first] == ["schema_drift"]
    assert read_items(reader, db)[0] == []


def _found(store, word: str) -> int:
    return len(search(store, word, "opencode", "opencode"))


def test_ingest_of_a_database_locked_mid_write_neither_crashes_nor_loses_rows(store, tmp_path: Path) -> None:
    from moraine.ingest.pipeline import ingest_paths

    db = build(tmp_path / "opencode.db", journal="delete")
    with holding_lock(db, _WRITES) as commit:
        ingest_paths(store, [db], source="opencode", harness="opencode", format="opencode_sqlite")
        assert _found(store, "opencodepumpkeyword") == 0  # locked: nothing readable yet, and no crash
        commit()
    ingest_paths(store, [db], source="opencode", harness="opencode", format="opencode_sqlite")
    ingest_paths(store, [db], source="opencode", harness="opencode", format="opencode_sqlite")
    assert _found(store, "opencodepumpkeyword") == 1
    assert _found(store, "typed while locked") == 1


def test_rows_committed_to_the_wal_are_ingested_on_the_next_pass(store, tmp_path: Path) -> None:
    from moraine.ingest.pipeline import ingest_paths

    db = build(tmp_path / "opencode.db", journal="wal")
    keep_open = sqlite3.connect(db)  # holds the WAL open so it is not checkpointed into the main file
    keep_open.execute("SELECT 1 FROM part").fetchall()
    ingest_paths(store, [db], source="opencode", harness="opencode", format="opencode_sqlite")
    keep_open.execute(
        "INSERT INTO part VALUES ('prt_40', 'msg_c1', 'ses_child001', 1781000040000, 1781000040000,"
        ' \'{"type":"text","text":"walonlykeyword arrives"}\')'
    )
    keep_open.commit()
    ingest_paths(store, [db], source="opencode", harness="opencode", format="opencode_sqlite")
    keep_open.close()
    assert _found(store, "walonlykeyword") == 1
