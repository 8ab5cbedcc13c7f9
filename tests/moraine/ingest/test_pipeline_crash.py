"""A process killed with SIGKILL in the middle of publishing a batch, then restarted, ends with every event once.

The ingest runs in subprocesses (each case owns its own chDB directory, or a database on ``CLICKHOUSE_URL``); the
``MORAINE_TEST_DIE_AFTER_INSERTS`` hook makes the first one SIGKILL itself after that many table inserts. Each case's
chDB directory is a copy of one migrated once per module (a fresh directory cost the killed process its migrations).
The cases where the restart reads the file again also run with two ingest worker processes reading it (workers 2):
they resume from the committed checkpoint there, and a killed owner's workers exit with it (otherwise they would
hold the captured output open and ``_run`` would time out).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from moraine.ingest.batch import DIE_AFTER_INSERTS_ENV
from tests.moraine.ingest.test_pipeline import conversation, write_lines

ROOT = Path(__file__).resolve().parents[3]
_SCRIPT = """
import json, sys
from pathlib import Path
from moraine.ingest.pipeline import ingest_paths
from moraine.store.client import Store
from tests.moraine.ingest.toy_adapter import ToyAdapter

dsn, database, trace, workers = sys.argv[1], sys.argv[2], Path(sys.argv[3]), int(sys.argv[4])
store = Store.open(dsn, database=database)
ingest_paths(
    store, [trace], source="codex", harness="codex", adapter=ToyAdapter(), batch_size=4, workers=workers,
    worker_min_bytes=0,
)
t = store.table
q = lambda sql: (store.query(sql) or [None])[0]
print(json.dumps({
    "events": q(f"SELECT count(), uniqExact(session_key, seq) FROM {t('events')}"),
    "max_seq": q(f"SELECT max(seq) FROM {t('events')}"),
    "dup_postings": q(f"SELECT count() FROM (SELECT count() c FROM {t('postings')} GROUP BY term, session_key, seq HAVING c > 1)"),
    "postings_docs": q(f"SELECT uniqExact(session_key, seq) FROM {t('postings')}"),
    "doc_stats": q(f"SELECT sum(docs) FROM {t('doc_stats')}"),
    "turn_events": q(f"SELECT sum(event_count) FROM {t('turns')} FINAL"),
    "session": q(f"SELECT event_count, turn_count FROM {t('sessions')} FINAL"),
    "texts": q(f"SELECT groupArray(text) FROM (SELECT text FROM {t('events')} ORDER BY seq)"),
    "turns": q(f"SELECT groupArray((turn_seq, event_count)) FROM (SELECT * FROM {t('turns')} FINAL ORDER BY turn_seq)"),
    "checkpoint": q(f"SELECT offset, JSONExtractBool(state, 'in_flight') FROM {t('checkpoints')} FINAL"),
}))
"""


_MIGRATE = """
import sys
from moraine.store.client import Store
Store.open(sys.argv[1], database=sys.argv[2]).close()
"""
# The store of a version whose Codex adapter was older: every checkpoint as read under revision 1.
_REVISION_1 = """
import sys
from moraine.store.client import Store
store = Store.open(sys.argv[1], database=sys.argv[2])
t = store.table("checkpoints")
columns = "stream_id, source, path, file_identity, offset, line_no, state, generation, updated_at"
store.command(f"INSERT INTO {t} ({columns}, version, revision) SELECT {columns}, version + 1, 1 FROM {t} FINAL")
"""
_DATABASE = "crash"  # the template's database: every copied directory holds it, migrated


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """Return a chDB directory holding the migrated database ``crash`` (migrated once, by a subprocess: chDB lets a
    process own one directory); None when the cases run on a server, where each migrates a database of its own."""
    if os.environ.get("CLICKHOUSE_URL") or os.environ.get("MORAINE_TEST_STORE") == "http":
        return None
    directory = tmp_path_factory.mktemp("crash-template") / "store"
    done = subprocess.run(
        [sys.executable, "-c", _MIGRATE, f"chdb://{directory}", _DATABASE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return directory


@pytest.fixture
def target(template: Path | None, tmp_path: Path, request: pytest.FixtureRequest) -> tuple[str, str]:
    """Return this case's (dsn, database): a copy of the template directory, or a fresh database on a server."""
    if template is not None:
        shutil.copytree(template, tmp_path / "store", symlinks=True)  # its links are relative
        return f"chdb://{tmp_path / 'store'}", _DATABASE
    if (
        os.environ.get("MORAINE_TEST_STORE") == "http"
    ):  # the subprocesses talk to this process's test endpoint
        dsn = str(request.getfixturevalue("clickhouse_http_url"))
    else:
        dsn = os.environ["CLICKHOUSE_URL"]
    return dsn, f"crash_{uuid.uuid4().hex[:12]}"


def _run(
    target: tuple[str, str], trace: Path, die_after: int | None, workers: int
) -> subprocess.CompletedProcess[str]:
    """Ingest ``trace`` (a file, or a directory of them) in a subprocess; print the store's figures as JSON."""
    env = dict(os.environ)
    env.pop(DIE_AFTER_INSERTS_ENV, None)
    if die_after is not None:
        env[DIE_AFTER_INSERTS_ENV] = str(die_after)
    return subprocess.run(
        [sys.executable, "-c", _SCRIPT, *target, str(trace), str(workers)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )


def _killed_then_restarted(
    target: tuple[str, str], trace: Path, die_after: int, workers: int, between: Callable[[], None]
) -> dict[str, Any]:
    """Run the ingest until it SIGKILLs itself, call ``between``, run it again to the end; return its figures."""
    killed = _run(target, trace, die_after, workers)
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    between()
    done = _run(target, trace, None, workers)
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# Inserts per batch: marker, events, touches (when the batch has any), turns, sessions, postings, doc_stats,
# checkpoint. Killed mid-first-batch; right after the first batch's checkpoint (8: a mid-file checkpoint, so the
# rest of the file must still be read on restart; it was skipped as "unchanged" while such a checkpoint recorded the
# file's full size); early in the second batch; late in the third. With two workers, whose chunks carry the
# reader's position and whether it reached the end: 8 (that mid-file checkpoint, nothing in flight, must not be
# taken for the whole file) and 20 (a partly written batch rolled back, a worker resuming from mid-file). 2 and 9
# with workers are left out: their restart differs from 20's only in what this process rolls back (the cases
# without workers), then a worker resumes from the committed checkpoint as in 20.
@pytest.mark.parametrize(("die_after", "workers"), [(2, 0), (8, 0), (9, 0), (20, 0), (8, 2), (20, 2)])
def test_sigkill_mid_batch_then_restart_leaves_every_event_exactly_once(
    tmp_path: Path, die_after: int, workers: int, target: tuple[str, str]
) -> None:
    trace = tmp_path / "a.jsonl"
    records = conversation(turns=5)
    write_lines(trace, records)
    result = _killed_then_restarted(target, trace, die_after, workers, lambda: None)
    expected = [r.get("text", "") for r in records if "info" not in r]
    assert result["events"] == [15, 15]
    assert result["max_seq"] == [15]
    assert result["dup_postings"] == [0]
    assert result["postings_docs"] == result["doc_stats"] == [15]
    assert result["turn_events"] == [15]
    assert result["session"] == [15, 5]
    assert result["texts"] == [expected]


# Killed mid-first-batch (nothing committed yet), and in the second batch after its events, touches, turns and
# sessions were written (8 inserts per batch here: marker, events, touches, turns, sessions, postings, doc_stats,
# checkpoint). In-process only: the restart finds no file to read (so it starts no workers) and rolls back in this
# process; a killed pass whose workers read the file is the test above's.
@pytest.mark.parametrize("die_after", [2, 13])
def test_a_file_gone_after_an_interrupted_publish_has_that_publish_rolled_back(
    tmp_path: Path, die_after: int, target: tuple[str, str]
) -> None:
    traces = tmp_path / "traces"
    traces.mkdir()
    trace = traces / "a.jsonl"
    records = conversation(turns=5)
    write_lines(trace, records)
    result = _killed_then_restarted(target, traces, die_after, 0, trace.unlink)
    # batch_size=4: the first batch holds the title and the first four events (lines 1-5).
    committed = 0 if die_after == 2 else 4
    offset = 0 if die_after == 2 else sum(len(json.dumps(r)) + 1 for r in records[:5])
    texts = [r.get("text", "") for r in records if "info" not in r][:committed]
    assert result["events"] == [committed, committed]
    assert result["texts"] == [texts]
    assert result["postings_docs"] == result["doc_stats"] == result["turn_events"] == [committed]
    assert result["session"] == (None if die_after == 2 else [4, 2])
    assert result["turns"] == [[] if die_after == 2 else [[1, 3], [2, 1]]]
    assert result["checkpoint"] == [offset, 0]  # the committed position, the in-flight marker cleared


# Killed mid-first-batch of the re-read (marker and events written), and right after its first checkpoint (a
# mid-file one: the rest must still be read): its rows were deleted when the re-read began, so every event is there
# once after the restart.
@pytest.mark.parametrize("die_after", [2, 9])
def test_sigkill_while_a_file_is_read_again_for_a_newer_adapter_leaves_every_event_once(
    tmp_path: Path, die_after: int, target: tuple[str, str]
) -> None:
    trace = tmp_path / "a.jsonl"
    records = conversation(turns=5)
    write_lines(trace, records)
    assert _run(target, trace, None, 0).returncode == 0

    def older() -> None:
        done = subprocess.run(
            [sys.executable, "-c", _REVISION_1, *target], cwd=ROOT, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr[-2000:]

    older()
    result = _killed_then_restarted(target, trace, die_after, 0, lambda: None)
    assert result["events"] == [15, 15]
    assert result["dup_postings"] == [0]
    assert result["postings_docs"] == result["doc_stats"] == result["turn_events"] == [15]
    assert result["session"] == [15, 5]
    assert result["texts"] == [[r.get("text", "") for r in records if "info" not in r]]
