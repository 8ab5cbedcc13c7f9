"""The shared store fixture gives each test its own migrated database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from moraine.store.client import Store


def test_store_fixture_yields_a_migrated_empty_database(store: Store) -> None:
    tables = {row[0] for row in store.query(f"SHOW TABLES FROM {store.database}")}
    assert {"events", "turns", "sessions", "postings", "checkpoints", "ingest_errors"} <= tables
    assert store.query(f"SELECT count() FROM {store.table('events')}") == [(0,)]


def test_ingest_into_store_builds_a_corpus_through_the_real_pipeline(
    store: Store, ingest_into_store: Any
) -> None:
    fixtures = Path(__file__).resolve().parents[2] / "harnesses"
    summary = ingest_into_store([fixtures / "codex" / "home" / ".codex" / "sessions"], source="codex")
    assert summary.files == 3
    assert summary.events > 20
    rows = store.query(f"SELECT DISTINCT source, harness FROM {store.table('sessions')} FINAL")
    assert rows == [("codex", "codex")]
    claude = ingest_into_store([fixtures / "claude_code" / "home" / ".claude" / "projects"], source="claude")
    assert claude.events > 10
    assert store.query(
        f"SELECT DISTINCT harness FROM {store.table('sessions')} FINAL WHERE source = 'claude'"
    ) == [("claude-code",)]
