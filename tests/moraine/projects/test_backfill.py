"""Sessions indexed before projects were recorded get theirs from the stored working directory."""

from __future__ import annotations

import json
from pathlib import Path

from moraine.attention.project import ProjectResolver
from moraine.ids import session_key
from moraine.ingest.project_backfill import backfill_projects
from moraine.store.client import Store


def test_sessions_without_a_project_get_it_from_their_directory_once(
    store: Store, ingest_into_store: object, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    trace = tmp_path / "t.jsonl"
    records = [
        {"timestamp": "2026-04-29T12:00:00.000Z", "type": "session_meta", "payload": {"id": "s1", "cwd": str(repo)}},
        {"timestamp": "2026-04-29T12:00:01.000Z", "type": "event_msg",
         "payload": {"type": "user_message", "message": "hello"}},
    ]  # fmt: skip
    trace.write_text("".join(json.dumps(r) + "\n" for r in records))
    ingest_into_store([trace], source="codex")  # type: ignore[operator]
    table = store.table("sessions")
    expected = store.query(f"SELECT project_id FROM {table} FINAL")[0][0]
    assert expected is not None
    store.command(f"ALTER TABLE {table} UPDATE project_id = NULL WHERE 1 SETTINGS mutations_sync = 2")
    assert store.query(f"SELECT project_id FROM {table} FINAL")[0][0] is None  # as an older Moraine left it
    resolver = ProjectResolver(ignore=())
    assert backfill_projects(store, resolver) == 1
    assert store.query(f"SELECT session_key, project_id FROM {table} FINAL") == [
        (session_key("codex", "s1"), expected)
    ]
    assert backfill_projects(store, resolver) == 0
