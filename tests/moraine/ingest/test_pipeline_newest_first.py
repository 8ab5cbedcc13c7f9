"""A backfill reads the most recently modified files first, so the newest sessions are searchable first."""

from __future__ import annotations

import os
from pathlib import Path

from moraine.config import SourceConfig
from moraine.ingest.pipeline import Ingestor
from moraine.ingest.progress import PassProgress
from moraine.store.client import Store
from tests.moraine.ingest.test_pipeline import conversation, write_lines
from tests.moraine.ingest.toy_adapter import ToyAdapter

# name -> modification time: path order (a, b, c) is neither the newest-first order (b, a, c) nor its reverse
MTIMES = {"a": 1_700_000_200, "b": 1_700_000_300, "c": 1_700_000_100}


def test_the_newest_file_is_committed_first_and_progress_counts_every_file(
    store: Store, tmp_path: Path
) -> None:
    for name, mtime in MTIMES.items():
        path = tmp_path / f"{name}.jsonl"
        write_lines(path, conversation(session=f"session-{name}", turns=2, prefix=name))
        os.utime(path, (mtime, mtime))
    source = SourceConfig("codex", "codex", f"{tmp_path}/*.jsonl", str(tmp_path))
    progress = PassProgress()
    seen: list[tuple[int, int, int]] = []

    def report(done: int, total: int, events: int) -> None:
        seen.append((done, total, events))
        progress.update(done, total, events)

    # batch_size=1: every file is published in batches of its own, in the order the pass reads the files
    summary = Ingestor(store, batch_size=1, progress=report, adapters={"codex": ToyAdapter()}).run([source])
    assert summary.files == 3 and summary.events == 18 and summary.errors == 0

    first_commit = store.query(
        f"SELECT path, min(version) FROM {store.table('checkpoints')} GROUP BY path ORDER BY min(version)"
    )
    assert [Path(path).stem for path, _ in first_commit] == ["b", "a", "c"]
    sessions = store.query(
        f"SELECT harness_session_id, min(version) FROM {store.table('sessions')} "
        "GROUP BY harness_session_id ORDER BY min(version)"
    )
    assert [sid for sid, _ in sessions] == ["session-b", "session-a", "session-c"]

    assert [(done, total) for done, total, _ in seen] == [(1, 3), (2, 3), (3, 3)]
    assert [events for *_, events in seen] == [6, 12, 18]
    snapshot = progress.snapshot()
    assert snapshot["files_done"] == 3 and snapshot["events"] == 18 and snapshot["eta_seconds"] == 0.0
    assert progress.line().startswith("3/3 files · 18 events · ")


def test_the_time_left_is_estimated_from_the_pace_of_the_files_done() -> None:
    now = [100.0]
    progress = PassProgress(clock=lambda: now[0])
    assert progress.snapshot()["eta_seconds"] is None  # nothing done yet: no estimate
    now[0] = 110.0
    progress.update(2, 10, 5_000)
    snapshot = progress.snapshot()
    assert snapshot["eta_seconds"] == 40.0 and snapshot["events_per_second"] == 500.0
    assert progress.line() == "2/10 files · 5,000 events · 500 events/s · 40 s left"
    progress.finish()
    now[0] = 500.0  # a finished pass keeps its own duration and rate
    assert progress.snapshot()["state"] == "done" and progress.line().endswith("500 events/s · done in 10 s")


def test_the_newest_file_is_published_before_a_full_batch_of_older_ones(store: Store, tmp_path: Path) -> None:
    for name, mtime in MTIMES.items():
        path = tmp_path / f"{name}.jsonl"
        write_lines(path, conversation(session=f"session-{name}", turns=2, prefix=name))
        os.utime(path, (mtime, mtime))
    source = SourceConfig("codex", "codex", f"{tmp_path}/*.jsonl", str(tmp_path))
    # the default batch holds all three files: only the first file's own publish can commit b before a and c appear
    Ingestor(store, adapters={"codex": ToyAdapter()}).run([source])
    rows = store.query(f"SELECT path, offset, version FROM {store.table('checkpoints')} ORDER BY version")
    committed_b = min(version for path, offset, version in rows if Path(path).stem == "b" and offset > 0)
    others = [version for path, _, version in rows if Path(path).stem != "b"]
    assert others and committed_b < min(others)
