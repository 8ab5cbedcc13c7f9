"""Migrations on a store that already holds data: the events rebuild (008) keeps every row and changes granules."""

from __future__ import annotations

from pathlib import Path

from moraine.store.client import Store

CODEX = Path(__file__).parents[2] / "fixtures" / "codex"


def _events(store: Store) -> list[tuple[object, ...]]:
    return [
        tuple(row) for row in store.query(f"SELECT * FROM {store.table('events')} ORDER BY session_key, seq")
    ]


def _granularity(store: Store) -> str:
    ddl = str(store.query(f"SHOW CREATE TABLE {store.table('events')}")[0][0])
    return ddl.rsplit("index_granularity = ", 1)[1].split()[0].rstrip(",")


def test_events_rebuild_keeps_every_row(store: Store, store_dsn: str, ingest_into_store) -> None:  # type: ignore[no-untyped-def]
    ingest_into_store([CODEX])
    before = _events(store)
    assert len(before) > 20
    # Put the store back where 007 left it: the 1024-row table, 008 not recorded.
    events = store.table("events")
    ddl = str(store.query(f"SHOW CREATE TABLE {events}")[0][0])
    store.command(f"RENAME TABLE {events} TO {events}_old")
    store.command(ddl.replace("index_granularity = 128", "index_granularity = 1024"))
    store.command(f"INSERT INTO {events} SELECT * FROM {events}_old")
    store.command(f"DROP TABLE {events}_old")
    store.command(f"DELETE FROM {store.table('schema_migrations')} WHERE version = 8")
    assert _granularity(store) == "1024"

    reopened = Store.open(store_dsn, database=store.database)
    try:
        assert _granularity(reopened) == "128"
        assert _events(reopened) == before
        tables = {row[0] for row in reopened.query(f"SHOW TABLES FROM {store.database}")}
        assert "events_rebuild" not in tables
        assert reopened.migrate() == []  # recorded: a second open does not copy again
    finally:
        reopened.close()
