"""Child process of the benchmark: one full ingest pass through the library, then a JSON line on stdout.

Run as ``python -m tools.bench.ingest_worker`` with MORAINE_HOME / MORAINE_CONFIG set (see tools.bench.home). It
is a separate process so that its peak RSS is the ingest's alone and the store's lock is released when it exits.
With ``MORAINE_BENCH_EMBED_THREADS=N`` the daemon's background vectorizer (N embedder threads in a process of its
own, lowest CPU priority) runs for the whole pass, as it does in ``moraine serve``. With
``MORAINE_BENCH_NEWEST_WORD`` set, ``tools.bench.newest`` polls search_sessions for it during the pass.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from moraine.config import Config, load_config
from moraine.ingest.pipeline import ingest_once
from moraine.ingest.progress import PassProgress
from moraine.store.client import Store
from tools.bench.newest import NEWEST_SOURCE, NewestProbe

if TYPE_CHECKING:  # the semantic modules load only when the embedder runs
    from moraine.semantic.passage_process import PassageProcess
    from moraine.semantic.vectorizer import BackgroundVectorizer

EMBED_THREADS = "MORAINE_BENCH_EMBED_THREADS"
NEWEST_WORD = "MORAINE_BENCH_NEWEST_WORD"  # the newest-first probe's word (tools.bench.newest)
LAUNCHED = "MORAINE_BENCH_LAUNCHED"  # time.time() when the parent started this process


def _start_vectorizer(config: Config, threads: int) -> tuple[BackgroundVectorizer, PassageProcess]:
    from moraine.semantic.passage_process import PassageProcess
    from moraine.semantic.vectorizer import BackgroundVectorizer

    passages = PassageProcess(threads)
    vectorizer = BackgroundVectorizer(
        Store(config.store_dsn, config.database, limits=config.store_limits), passages, poll_seconds=0.5
    )
    vectorizer.start()
    return vectorizer, passages


# Tables whose rows depend only on the corpus (no versions or wall-clock times): equal checksums = identical output.
CHECKSUM_TABLES = ("events", "postings", "touches")


def table_checksums(store: Store) -> dict[str, str]:
    """Return ``rows:hash`` per table, an order-independent hash of every row (sum of row hashes, mod 2**64).

    The sessions of the newest-first probe's source are left out: the figures are the corpus's alone."""
    out = {}
    probe = f"SELECT session_key FROM {store.table('sessions')} WHERE source = {{probe:String}}"
    for table in CHECKSUM_TABLES:
        # toString(tuple(*)): a NULL column would make cityHash64(*) NULL for the whole row
        rows, digest = store.query(
            f"SELECT count(), sum(cityHash64(toString(tuple(*)))) FROM {store.table(table)} "
            f"WHERE session_key NOT IN ({probe})",
            {"probe": NEWEST_SOURCE},
        )[0]
        out[table] = f"{int(rows)}:{int(digest):016x}"
    return out


def table_sizes(store: Store) -> dict[str, float]:
    """Return each table's bytes on disk in MiB (its active parts, compressed), largest first."""
    rows = store.query(
        "SELECT table, sum(bytes_on_disk) AS size FROM system.parts WHERE database = {db:String} AND active "
        "GROUP BY table ORDER BY size DESC",
        {"db": store.database},
    )
    return {str(table): round(int(size) / 2**20, 1) for table, size in rows}


def _watch_children(stop: threading.Event, peaks: dict[int, int], skip: set[int]) -> None:
    """Record each child process's VmHWM (KiB) every second until ``stop`` (a /proc scan costs a few ms), but
    those in ``skip`` (the embedder's process is no ingest worker).

    The rusage of a reaped child would count the parent's pages it shared between fork and exec; VmHWM belongs to
    the memory image the worker itself runs in.
    """
    me = str(os.getpid())
    while not stop.wait(1.0):
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) in skip:
                continue
            try:
                if (entry / "stat").read_text().rsplit(")", 1)[1].split()[1] != me:
                    continue
                status = (entry / "status").read_text()
            except (OSError, IndexError):
                continue
            for line in status.splitlines():
                if line.startswith("VmHWM:"):
                    peaks[int(entry.name)] = max(peaks.get(int(entry.name), 0), int(line.split()[1]))


def main() -> int:
    config = load_config()
    started = time.perf_counter()
    store = Store.open(config.store_dsn, config.database, limits=config.store_limits)
    threads = int(os.environ.get(EMBED_THREADS, "0"))
    vectorizer, passages = _start_vectorizer(config, threads) if threads else (None, None)
    opened = time.perf_counter()
    thread_cpu = time.thread_time()
    peaks: dict[int, int] = {}
    watching = threading.Event()
    skip = {passages.pid} if passages is not None else set()
    watcher = threading.Thread(target=_watch_children, args=(watching, peaks, skip), daemon=True)
    if config.workers:
        watcher.start()
    progress = PassProgress()
    word = os.environ.get(NEWEST_WORD)
    probe = NewestProbe(store, word, float(os.environ[LAUNCHED]), progress) if word else None
    summary = ingest_once(
        store, config, sources=[s.name for s in config.sources if s.enabled], progress=progress.update
    )
    thread_cpu = time.thread_time() - thread_cpu  # the pass's own thread: the Python work per record
    done = time.perf_counter()
    newest = probe.finish() if probe is not None else None
    watching.set()
    if config.workers:
        watcher.join()
    if vectorizer is not None:
        vectorizer.shutdown()
    events = store.query(f"SELECT count() FROM {store.table('events')}")[0][0]  # the probe's included
    checksums = table_checksums(store)
    table_mib = table_sizes(store)
    store.close()
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)  # the ingest workers, reaped when the pass ended
    if passages is not None:
        passages.close()  # after the workers' figure, which it is not part of (the whole tree's CPU is)
    result = {
        "files": summary.files,
        "sessions": summary.sessions,
        "events": summary.events,
        "stored_events": int(events),
        "errors": summary.errors,
        "open_seconds": opened - started,
        "ingest_seconds": done - opened,
        "ingest_thread_cpu_seconds": thread_cpu,
        "embedded": vectorizer.embedded if vectorizer is not None else None,
        "checksums": checksums,
        "table_mib": table_mib,
        "workers": summary.workers,
        "own_peak_rss_mb": own.ru_maxrss / 1024,  # Linux reports KiB
        "workers_peak_rss_mb": max(peaks.values()) / 1024 if peaks else None,  # the largest worker (VmHWM)
        "workers_cpu_seconds": workers.ru_utime + workers.ru_stime if summary.workers else None,
        "newest": newest,
    }
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
