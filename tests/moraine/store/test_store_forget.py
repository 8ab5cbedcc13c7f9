"""Forgetting sessions removes their content from the store's files on disk, and keeps them out of later ingests;
a rewritten trace file's old content leaves the files on disk too (a lightweight delete only masked it)."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path

from tests.moraine.store.part_bytes import files_holding
from tests.moraine.store.quick_cleanup import keep_replaced_parts_briefly

from moraine.ingest.forgetting import forget_sessions
from moraine.store.client import Store
from moraine.store.forget import (
    CONTENT_TABLES,
    outdated_parts,
    ForgetCriteria,
    find_sessions,
    forgotten_count,
    forgotten_keys,
)

FORGOTTEN = "plantedquokkaforgotten"
APPENDED = "plantedquokkaappended"
REWRITTEN = "plantedquokkarewritten"
KEPT = "plantedwombatkept"


def _codex(path: Path, uuid: str, messages: list[str], start: int = 0) -> None:
    """Append one Codex turn per message to ``path`` (the session header first when the file is new)."""
    lines = []
    if not path.exists():
        lines.append(
            {
                "timestamp": "2026-04-29T10:00:00.000Z",
                "type": "session_meta",
                "payload": {"id": uuid, "cwd": "/work/app"},
            }
        )
    for index, text in enumerate(messages, start):
        stamp = f"2026-04-29T10:{index:02d}:0{{}}.000Z"
        lines += [
            {
                "timestamp": stamp.format(1),
                "type": "event_msg",
                "payload": {"type": "user_message", "message": f"Where is {text}?"},
            },
            {
                "timestamp": stamp.format(2),
                "type": "event_msg",
                "payload": {"type": "agent_message", "message": f"{text} is in the ledger."},
            },
            {
                "timestamp": stamp.format(3),
                "type": "event_msg",
                "payload": {"type": "task_complete", "last_agent_message": "done"},
            },
        ]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.writelines(json.dumps(line) + "\n" for line in lines)


def _on_disk(root: Path, needle: str) -> list[str]:
    """Return the store files (parts, marks, indexes, metadata) that hold ``needle``, decompressed."""
    return files_holding(root, needle)


def _left_on_disk(root: Path, needle: str, seconds: float = 30.0) -> list[str]:
    """Return the files still holding ``needle`` once ClickHouse has finished deleting the parts it let go.

    A part that left ``system.parts`` may still be on disk for an instant as ``delete_tmp_<part>`` while its files
    are unlinked: that directory, and only that, is waited for (bounded)."""
    deadline = time.monotonic() + seconds
    while True:
        found = files_holding(root, needle)
        if not all("/delete_tmp_" in path for path in found) or not found or time.monotonic() >= deadline:
            return found
        time.sleep(0.1)


def _events_with(store: Store, needle: str) -> int:
    return int(
        store.query(
            f"SELECT count() FROM {store.table('events')} WHERE position(text, {{n:String}}) > 0",
            {"n": needle},
        )[0][0]
    )


def test_forget_and_a_rewrite_leave_no_trace_of_the_content_in_the_stores_files(
    store: Store, ingest_into_store: object, chdb_dir: Path, tmp_path: Path
) -> None:
    ingest = ingest_into_store  # type: ignore[assignment]
    # The forget's wait for the replaced parts is ClickHouse's: 1 s here (tests/e2e/test_daemon_forget: the real 10).
    keep_replaced_parts_briefly(store)
    forgotten = (
        tmp_path / "sessions" / "rollout-2026-04-29T10-00-00-0196a000-0000-7000-8000-0000000000a1.jsonl"
    )
    rewritten = (
        tmp_path / "sessions" / "rollout-2026-04-29T10-00-00-0196a000-0000-7000-8000-0000000000a2.jsonl"
    )
    kept = tmp_path / "sessions" / "rollout-2026-04-29T10-00-00-0196a000-0000-7000-8000-0000000000a3.jsonl"
    _codex(forgotten, "0196a000-0000-7000-8000-0000000000a1", [FORGOTTEN, "the first ledger"])
    _codex(rewritten, "0196a000-0000-7000-8000-0000000000a2", [REWRITTEN])
    _codex(kept, "0196a000-0000-7000-8000-0000000000a3", [KEPT])
    summary = ingest([forgotten, rewritten, kept])  # type: ignore[operator]
    assert summary.errors == 0 and summary.sessions == 3
    for needle in (FORGOTTEN, REWRITTEN, KEPT):
        assert _events_with(store, needle) == 2 and _on_disk(chdb_dir, needle), needle

    rewritten.write_text("")  # the agent rewrote its file without that turn
    _codex(rewritten, "0196a000-0000-7000-8000-0000000000a2", ["a harmless question"])
    assert ingest([rewritten]).rewritten == 1  # type: ignore[operator]
    assert _events_with(store, REWRITTEN) == 0

    targets = find_sessions(store, ForgetCriteria(path=str(forgotten)))
    assert [t.source_path for t in targets] == [str(forgotten)]
    result = forget_sessions(store, targets)
    assert result.sessions == 1 and result.checkpoints == 1 and result.parts_left == 0, (
        result,
        outdated_parts(store),
    )
    assert _events_with(store, FORGOTTEN) == 0
    assert (
        _left_on_disk(chdb_dir, FORGOTTEN) == []
    )  # events, postings, turns, sessions, checkpoints, indexes: gone
    assert _left_on_disk(chdb_dir, REWRITTEN) == []  # the rewritten file's old rows too
    assert _on_disk(chdb_dir, KEPT) and _events_with(store, KEPT) == 2  # the other session is untouched

    _codex(forgotten, "", [APPENDED], start=5)  # the agent goes on writing to the forgotten session's file
    again = ingest([forgotten])  # type: ignore[operator]
    assert again.errors == 0
    assert _events_with(store, APPENDED) == 0 and _left_on_disk(chdb_dir, APPENDED) == []
    assert find_sessions(store, ForgetCriteria(path=str(forgotten))) == []
    assert forgotten_count(store) == 1 and forgotten_keys(store) == {targets[0].session_key}


def test_criteria_narrow_each_other_and_an_empty_one_selects_nothing(
    store: Store, ingest_into_store: object, tmp_path: Path
) -> None:
    ingest = ingest_into_store  # type: ignore[assignment]
    paths = []
    for n in range(3):
        path = tmp_path / f"rollout-2026-04-29T10-00-00-0196a000-0000-7000-8000-00000000000{n}.jsonl"
        _codex(path, f"0196a000-0000-7000-8000-00000000000{n}", [f"question {n}"], start=n * 10)
        paths.append(path)
    ingest(paths)  # type: ignore[operator]
    assert find_sessions(store, ForgetCriteria()) == []
    everything = find_sessions(store, ForgetCriteria(harness="codex"))
    assert len(everything) == 3
    early = find_sessions(
        store, ForgetCriteria(harness="codex", before=datetime(2026, 4, 29, 10, 15, tzinfo=UTC))
    )
    assert len(early) == 2  # sessions last updated at 10:00-10:03 and 10:10-10:13, not 10:20-10:23
    assert find_sessions(store, ForgetCriteria(harness="claude-code")) == []
    one = find_sessions(store, ForgetCriteria(session_keys=(everything[0].session_key,)))
    assert one == [everything[0]]
    assert find_sessions(store, ForgetCriteria(native_ids=("0196a000-0000-7000-8000-000000000001",)))[
        0
    ].source_path == str(paths[1])


def test_every_table_a_forget_waits_on_keeps_replaced_parts_10_s_and_looks_for_them_every_1_to_5_s(
    store: Store,
) -> None:
    rows = store.query(
        "SELECT name, create_table_query FROM system.tables WHERE database = {db:String} AND name IN {t:Array(String)}",
        {"db": store.database, "t": list(CONTENT_TABLES)},
    )
    assert {name for name, _ in rows} == set(CONTENT_TABLES)
    for name, ddl in rows:
        for setting in (
            "old_parts_lifetime = 10",
            "cleanup_delay_period = 1",
            "cleanup_delay_period_random_add = 1",
            "max_cleanup_delay_period = 5",
        ):
            assert setting in ddl, (name, setting)
