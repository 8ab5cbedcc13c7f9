"""The shared store fixture gives each test its own migrated database."""

from __future__ import annotations

from moraine.store.client import Store


def test_store_fixture_yields_a_migrated_empty_database(store: Store) -> None:
    tables = {row[0] for row in store.query(f"SHOW TABLES FROM {store.database}")}
    assert {"events", "turns", "sessions", "postings", "checkpoints", "ingest_errors"} <= tables
    assert store.query(f"SELECT count() FROM {store.table('events')}") == [(0,)]
