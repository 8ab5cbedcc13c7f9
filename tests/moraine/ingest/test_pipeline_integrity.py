"""Rewrites behind an unchanged head, and row versions under a clock stepped back (the real store, the toy adapter)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from moraine.store import versions
from moraine.store.client import Store
from tests.moraine.ingest.test_pipeline import conversation, events, ingest, write_lines

_LONG_HEAD = {"session": "s1", "type": "user_input", "text": "x" * 6000, "starts_turn": True}


def _lines(records: list[dict[str, object]]) -> bytes:
    return b"".join(json.dumps(record).encode() + b"\n" for record in records)


def _checkpoint(store: Store) -> tuple[int, int]:
    rows = store.query(f"SELECT offset, generation FROM {store.table('checkpoints')} FINAL")
    assert len(rows) == 1
    return int(rows[0][0]), int(rows[0][1])


def test_a_rewrite_in_place_that_keeps_the_first_4_kib_is_reingested_exactly_once(
    store: Store, tmp_path: Path
) -> None:
    trace = tmp_path / "a.jsonl"
    trace.write_bytes(_lines([_LONG_HEAD, *conversation(turns=2, prefix="old")]))
    ingest(store, trace)
    inode = trace.stat().st_ino
    new = _lines([_LONG_HEAD, *conversation(turns=3, prefix="rewritten ")])  # longer: no truncation to notice
    with trace.open("r+b") as handle:  # in place: same inode, same first 6 KiB
        handle.write(new)
        handle.truncate()
    assert trace.stat().st_ino == inode and trace.stat().st_size > _checkpoint(store)[0]

    summary = ingest(store, trace)

    assert (summary.rewritten, summary.errors) == (1, 0)
    expected = ["x" * 6000] + [
        text
        for turn in (1, 2, 3)
        for text in (f"rewritten question {turn} about parseConfigFile", "", f"rewritten answer {turn}")
    ]
    assert [row[5] for row in events(store)] == expected
    assert store.query(f"SELECT count(), uniqExact(session_key, seq) FROM {store.table('events')}") == [
        (10, 10)
    ]
    assert store.query(f"SELECT count() FROM {store.table('ingest_errors')}") == [(0,)]
    assert store.query(f"SELECT count() FROM {store.table('postings')} WHERE term = 'oldanswer'") == [(0,)]
    assert store.query(f"SELECT title, event_count, generation FROM {store.table('sessions')} FINAL") == [
        ("rewritten title", 10, 1)
    ]
    assert _checkpoint(store) == (len(new), 1)
    again = ingest(store, trace)  # exactly once: the rewritten file is now the known one
    assert (again.events, again.rewritten, again.unchanged) == (0, 0, 1)


def test_appending_after_a_long_head_resumes_where_it_stopped(store: Store, tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    records = [_LONG_HEAD, *conversation(turns=3)]
    write_lines(trace, records[:5])
    ingest(store, trace)
    write_lines(trace, records[5:], mode="a")
    summary = ingest(store, trace)
    assert (summary.events, summary.rewritten) == (len(records) - 5, 0)
    assert [row[1] for row in events(store)] == list(
        range(1, len(records))
    )  # every event once (info: no event)
    assert _checkpoint(store) == (trace.stat().st_size, 0)


def test_a_clock_stepped_back_never_makes_newer_rows_lose(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trace = tmp_path / "a.jsonl"
    records = conversation(turns=3)
    write_lines(trace, records[:4])
    ingest(store, trace)
    # A restart (a fresh counter) with the wall clock decades behind the versions already stored.
    monkeypatch.setattr(versions, "_last", 0)
    monkeypatch.setattr(versions, "time_ns", lambda: 1_000_000_000)
    reopened = Store.open(store.dsn, store.database)
    try:
        write_lines(trace, records[4:], mode="a")
        assert ingest(reopened, trace).events == 6
        assert reopened.query(f"SELECT event_count, turn_count FROM {store.table('sessions')} FINAL") == [
            (9, 3)
        ]
        assert reopened.query(
            f"SELECT turn_seq, event_count, completed FROM {store.table('turns')} FINAL ORDER BY turn_seq"
        ) == [(1, 3, 1), (2, 3, 1), (3, 3, 1)]
        assert _checkpoint(reopened) == (trace.stat().st_size, 0)
        assert ingest(reopened, trace).events == 0
        assert reopened.query(f"SELECT count(), max(seq) FROM {store.table('events')}") == [(9, 9)]
    finally:
        reopened.close()
