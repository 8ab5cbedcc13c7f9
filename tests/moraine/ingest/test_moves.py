"""A trace file moved to another path is read again there and its sessions stay one copy under their own IDs."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from moraine.ids import session_key
from moraine.store.client import Store
from tests.moraine.ingest.test_pipeline import conversation, events, ingest, write_lines


def _sessions(store: Store) -> list[tuple[int, str, int]]:
    return [
        (int(key), str(path), int(count))
        for key, path, count in store.query(
            f"SELECT session_key, source_path, event_count FROM {store.table('sessions')} FINAL ORDER BY session_key"
        )
    ]


def _checkpoint_paths(store: Store) -> list[str]:
    rows = store.query(f"SELECT path FROM {store.table('checkpoints')} FINAL ORDER BY path")
    return [str(row[0]) for row in rows]


@pytest.mark.parametrize("workers", [0, 1])
def test_a_moved_file_keeps_one_copy_of_its_session_under_its_key(
    store: Store, tmp_path: Path, workers: int
) -> None:
    old, new = tmp_path / "old" / "a.jsonl", tmp_path / "new" / "a.jsonl"
    old.parent.mkdir()
    new.parent.mkdir()
    write_lines(old, conversation("moved", turns=2))
    ingest(store, old)
    before = events(store)
    old.rename(new)  # the same file system: the inode stays
    write_lines(new, conversation("moved", turns=3)[7:], mode="a")  # and the agent went on in it
    summary = ingest(store, new, workers=workers, worker_min_bytes=0)
    assert summary.errors == 0
    after = events(store)
    key = session_key("codex", "moved")
    assert {row[0] for row in after} == {key}  # no second key beside the first
    assert after[: len(before)] == before and len(after) == 9
    assert [row[1] for row in after] == list(range(1, 10))
    assert _sessions(store) == [(key, str(new), 9)]
    assert _checkpoint_paths(store) == [str(new)]
    assert ingest(store, new).events == 0


@pytest.mark.parametrize("second_path", [shutil.copy, os.link], ids=["copy", "hard link"])
def test_a_second_path_beside_the_original_is_not_a_move(
    store: Store, tmp_path: Path, second_path: Callable[[Path, Path], object]
) -> None:
    original, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_lines(original, conversation("twice", turns=1))
    ingest(store, original)
    second_path(original, other)
    ingest(store, original, other)
    keys = {row[0] for row in events(store)}
    assert len(keys) == 2 and session_key("codex", "twice") in keys  # the original's rows stay where they are
    assert _checkpoint_paths(store) == [str(original), str(other)]


def test_a_file_moved_and_then_rewritten_is_a_new_file(store: Store, tmp_path: Path) -> None:
    old, new = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_lines(old, conversation("first", turns=2))
    ingest(store, old)
    old.rename(new)
    with new.open("r+b") as handle:  # the same inode, other bytes where the old checkpoint read
        handle.write(b'{"session": "other"')
    ingest(store, new)
    assert session_key("codex", "first") in {row[0] for row in events(store)}  # the old rows stay
    assert str(old) in _checkpoint_paths(store)


def test_a_file_opened_before_the_moved_one_and_read_after_it_does_not_take_its_key(
    store: Store, tmp_path: Path
) -> None:
    old, new, other = tmp_path / "a.jsonl", tmp_path / "moved" / "a.jsonl", tmp_path / "c.jsonl"
    new.parent.mkdir()
    write_lines(old, conversation("kept", turns=2))
    ingest(store, old)
    old.rename(new)
    write_lines(other, conversation("kept", turns=1, prefix="other "))  # another file holding that session
    # A worker reads both; the owner opens the moved file while the other one's rows are still to come.
    ingest(store, other, new, workers=1, worker_min_bytes=0)
    key = session_key("codex", "kept")
    rows = events(store)
    assert [row[5] for row in rows if row[0] == key and row[4] == "user_input"] == [
        "question 1 about parseConfigFile",
        "question 2 about parseConfigFile",
    ]  # the moved file's session keeps its key
    assert len({row[0] for row in rows}) == 2  # the other file's copy is kept apart
