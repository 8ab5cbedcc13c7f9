"""Ingest worker processes: the same rows as an in-process pass, a crashed worker is an error (not a hang, not lost
rows), and workers die with the process that started them."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from moraine.config import SourceConfig
from moraine.errors import IngestWorkerError
from moraine.harness_api.adapter import StreamContext
from moraine.harness_api.model import Emitted, RawRecord
from moraine.ingest.pipeline import Ingestor, IngestSummary, ingest_paths
from moraine.store.client import Store
from tests.moraine.ingest.test_pipeline import conversation, write_lines
from tests.moraine.ingest.toy_adapter import ToyAdapter
from tools.bench.ingest_worker import table_checksums
from tools.corpus import MANIFEST, generate

ROOT = Path(__file__).resolve().parents[3]
_WAIT_SECONDS = 30.0


class KillingAdapter(ToyAdapter):
    """The toy adapter, except that a worker process reading a record with text "die" SIGKILLs itself."""

    def __init__(self) -> None:
        self.owner = os.getpid()

    def normalize(self, record: RawRecord, ctx: StreamContext) -> Iterable[Emitted]:
        data = record.data
        if isinstance(data, dict) and data.get("text") == "die" and os.getpid() != self.owner:
            os.kill(os.getpid(), signal.SIGKILL)
        return super().normalize(record, ctx)


def _toy_pass(store: Store, paths: list[Path], workers: int) -> IngestSummary:
    """One ingest pass over ``paths`` with the toy adapter, every file big enough for the workers."""
    return ingest_paths(
        store, paths, "codex", "codex", ToyAdapter(), batch_size=4, workers=workers, worker_min_bytes=0
    )


def _state(store: Store) -> dict[str, Any]:
    """Return every row that does not depend on wall-clock time or versions (checksums, sessions, turns, errors)."""
    t = store.table
    sessions = store.query(
        f"SELECT * EXCEPT (version) FROM {t('sessions')} FINAL ORDER BY session_key",
    )
    turns = store.query(f"SELECT * EXCEPT (version) FROM {t('turns')} FINAL ORDER BY session_key, turn_seq")
    errors = store.query(
        f"SELECT source, path, line_no, offset, reason, detail FROM {t('ingest_errors')} ORDER BY ALL"
    )
    docs = store.query(
        f"SELECT stream_id, type, sum(docs), sum(total_len) FROM {t('doc_stats')} GROUP BY ALL ORDER BY ALL"
    )
    checkpoints = store.query(
        f"SELECT stream_id, path, offset, line_no, state, generation FROM {t('checkpoints')} FINAL ORDER BY stream_id"
    )
    return {
        "checksums": table_checksums(store),
        "sessions": sessions,
        "turns": turns,
        "errors": errors,
        "doc_stats": docs,
        "checkpoints": checkpoints,
    }


def _corpus_sources(root: Path) -> list[SourceConfig]:
    manifest = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    return [
        SourceConfig(s["name"], s["harness"], str(root / s["glob"]), str(root / s["root"]), "jsonl")
        for s in manifest["sources"]
    ]


def _reset(store: Store) -> None:
    for table in (
        "events",
        "postings",
        "touches",
        "sessions",
        "turns",
        "ingest_errors",
        "doc_stats",
        "checkpoints",
    ):
        store.command(f"TRUNCATE TABLE {store.table(table)}")


def test_workers_write_the_same_rows_as_an_in_process_pass(store: Store, tmp_path: Path) -> None:
    generate(tmp_path / "corpus", 1500, 3)
    sources = _corpus_sources(tmp_path / "corpus")
    results = []
    for workers in (0, 2):
        _reset(store)
        summary = Ingestor(store, batch_size=300, workers=workers, worker_min_bytes=0).run(sources)
        assert summary.workers == workers
        assert summary.events > 1000 and summary.files > 5
        results.append((summary.events, summary.errors, summary.sessions, summary.files, _state(store)))
    assert results[0] == results[1]


def test_a_session_in_two_files_read_by_two_workers_is_keyed_as_in_process(
    store: Store, tmp_path: Path
) -> None:
    paths = [tmp_path / f"{name}.jsonl" for name in "abcd"]
    write_lines(paths[0], conversation("shared", turns=1))
    write_lines(paths[1], conversation("shared", turns=2) + conversation("other", turns=1))
    write_lines(paths[2], conversation("other", turns=3))
    write_lines(paths[3], conversation("shared", turns=1, prefix="late "))
    results = []
    for workers in (0, 2):
        _reset(store)
        _toy_pass(store, paths, workers)
        results.append(_state(store))
    assert results[0] == results[1]
    assert len(results[0]["sessions"]) == 5  # "shared" x3 and "other" x2, each file's own key after the first


def test_a_second_pass_over_appended_and_rewritten_files_matches_in_process(
    store: Store, tmp_path: Path
) -> None:
    paths = [tmp_path / f"{name}.jsonl" for name in "abcd"]
    results = []
    for workers in (0, 2):
        _reset(store)
        write_lines(paths[0], conversation("shared", turns=2))
        write_lines(paths[1], conversation("other", turns=2))
        write_lines(paths[2], conversation("third", turns=2))
        write_lines(paths[3], conversation("other", turns=1))
        _toy_pass(store, paths, workers)
        write_lines(paths[0], conversation("shared", turns=1, prefix="more "), mode="a")
        write_lines(paths[2], conversation("shared", turns=3, prefix="new "))  # rewritten: now holds "shared"
        summary = _toy_pass(store, paths, workers)
        assert (summary.rewritten, summary.unchanged) == (1, 2)
        results.append(_state(store))
    assert results[0] == results[1]


def test_a_worker_killed_mid_pass_is_an_ingest_error_and_the_next_pass_keeps_every_event_once(
    store: Store, tmp_path: Path
) -> None:
    paths = [tmp_path / f"{name}.jsonl" for name in "abc"]
    write_lines(paths[0], conversation("s1", turns=3))
    records = conversation("s2", turns=3)
    records.insert(5, {"session": "s2", "type": "user_input", "text": "die"})
    write_lines(paths[1], records)
    write_lines(paths[2], conversation("s3", turns=3))
    started = time.monotonic()
    with pytest.raises(
        IngestWorkerError, match=r"ingest worker \(pid \d+\) exited with code -9 while reading"
    ):
        ingest_paths(
            store, paths, "codex", "codex", KillingAdapter(), batch_size=4, workers=2, worker_min_bytes=0
        )
    assert time.monotonic() - started < _WAIT_SECONDS
    summary = ingest_paths(store, paths, "codex", "codex", ToyAdapter(), batch_size=4)
    rows = store.query(f"SELECT count(), uniqExact(session_key, seq) FROM {store.table('events')}")
    assert rows == [(28, 28)]  # 3 x 9 events and "die", each once, whatever the killed pass had published
    assert summary.errors == 0


def test_an_adapter_that_cannot_be_sent_to_a_worker_is_read_in_process(store: Store, tmp_path: Path) -> None:
    class Local(ToyAdapter):  # defined in a function: pickle cannot name it, so no worker can run it
        pass

    paths = [tmp_path / f"{name}.jsonl" for name in "ab"]
    for index, path in enumerate(paths):
        write_lines(path, conversation(f"s{index}", turns=2))
    summary = ingest_paths(store, paths, "codex", "codex", Local(), workers=2, worker_min_bytes=0)
    assert (summary.events, summary.errors) == (12, 0)


_OWNER = """
import sys
from moraine.ingest.workers import WorkerPool
pool = WorkerPool(2, redact=False)
print(" ".join(str(w.process.pid) for w in pool._workers), flush=True)
sys.stdin.read()
"""


def test_workers_exit_when_the_process_that_started_them_is_killed() -> None:
    owner = subprocess.Popen(
        [sys.executable, "-c", _OWNER], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert owner.stdout is not None
    pids = [int(pid) for pid in owner.stdout.readline().split()]
    assert len(pids) == 2
    handles = [
        os.pidfd_open(pid) for pid in pids
    ]  # readable once the process has exited (it is not our child)
    try:
        assert select.select(handles, [], [], 0)[0] == []  # both running
        owner.send_signal(signal.SIGKILL)
        owner.wait(timeout=_WAIT_SECONDS)
        deadline = time.monotonic() + _WAIT_SECONDS
        exited: set[int] = set()
        while len(exited) < len(handles) and time.monotonic() < deadline:
            exited.update(select.select(handles, [], [], max(deadline - time.monotonic(), 0))[0])
        assert len(exited) == len(handles)
    finally:
        for handle in handles:
            os.close(handle)
