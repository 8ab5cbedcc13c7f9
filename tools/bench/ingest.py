"""Full ingest of a corpus in a child process: wall time, throughput and the child's peak RSS."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.bench.home import bench_env
from tools.bench.ingest_worker import EMBED_THREADS, LAUNCHED, NEWEST_WORD

__all__ = ["IngestRun", "run_ingest"]


@dataclass(frozen=True, slots=True)
class IngestRun:
    via: str
    wall_seconds: float  # process start to exit (interpreter, store open, migrations, ingest)
    ingest_seconds: float  # the ingest call alone, as the child measured it
    raw_events: int  # records in the corpus
    stored_events: int  # rows in the events table afterwards
    raw_bytes: int
    peak_rss_mb: float
    files: int
    errors: int
    cpu_seconds: (
        float  # user + system CPU of the ingest process (all threads): its work, whatever the contention
    )
    embed_threads: int = 0  # the background vectorizer ran alongside with this many threads (0: not at all)
    embedded: int | None = None  # passages it embedded during the pass
    ingest_thread_cpu_seconds: float | None = (
        None  # CPU of the thread running the pass (reading to row building)
    )
    checksums: dict[str, str] | None = (
        None  # table -> "rows:hash" (same corpus, same output = same checksums)
    )
    table_mib: dict[str, float] | None = None  # table -> MiB on disk right after the pass (active parts)
    workers: int = 0  # ingest worker processes the pass used
    own_peak_rss_mb: float | None = None  # the store-owning process alone (peak_rss_mb: the largest process)
    workers_peak_rss_mb: float | None = None  # the largest worker
    workers_cpu_seconds: float | None = None  # included in cpu_seconds
    # the newest-first probe's finding (tools.bench.newest), when one was planted
    newest: dict[str, Any] | None = None

    @property
    def events_per_second(self) -> float:
        return self.raw_events / self.ingest_seconds if self.ingest_seconds else 0.0

    @property
    def mb_per_second(self) -> float:
        return self.raw_bytes / 1e6 / self.ingest_seconds if self.ingest_seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "via": self.via,
            "wall_seconds": round(self.wall_seconds, 2),
            "ingest_seconds": round(self.ingest_seconds, 2),
            "raw_events": self.raw_events,
            "stored_events": self.stored_events,
            "raw_mb": round(self.raw_bytes / 1e6, 1),
            "events_per_second": round(self.events_per_second),
            "mb_per_second": round(self.mb_per_second, 2),
            "peak_rss_mb": round(self.peak_rss_mb, 1),
            "cpu_seconds": round(self.cpu_seconds, 1),
            "events_per_cpu_second": round(self.raw_events / self.cpu_seconds) if self.cpu_seconds else None,
            "files": self.files,
            "errors": self.errors,
            "embed_threads": self.embed_threads,
            "embedded": self.embedded,
            "ingest_thread_cpu_seconds": (
                None if self.ingest_thread_cpu_seconds is None else round(self.ingest_thread_cpu_seconds, 1)
            ),
            "checksums": self.checksums,
            "table_mib": self.table_mib,
            "workers": self.workers,
            "own_peak_rss_mb": None if self.own_peak_rss_mb is None else round(self.own_peak_rss_mb, 1),
            "workers_peak_rss_mb": (
                None if self.workers_peak_rss_mb is None else round(self.workers_peak_rss_mb, 1)
            ),
            "workers_cpu_seconds": (
                None if self.workers_cpu_seconds is None else round(self.workers_cpu_seconds, 1)
            ),
            "cpu_us_per_record": round(self.cpu_seconds * 1e6 / self.raw_events) if self.raw_events else None,
            "newest": self.newest,
        }


def run_ingest(
    home: Path, raw_events: int, raw_bytes: int, embed_threads: int = 0, newest_word: str | None = None
) -> IngestRun:
    """Run ``tools.bench.ingest_worker`` under ``home`` and measure it (peak RSS via wait4's rusage).

    wait4's rusage covers the child and the descendants it reaped (its ingest workers): CPU is their sum, peak RSS
    the largest single process; the child reports its own peak and its largest worker's besides.

    ``embed_threads``: run the background vectorizer in the same process with that many threads (0: off).
    ``newest_word``: the word of a planted newest-first probe (``tools.bench.newest``), polled during the pass.
    """
    command = [sys.executable, "-m", "tools.bench.ingest_worker"]
    env = bench_env(home)
    if embed_threads:
        env[EMBED_THREADS] = str(embed_threads)
    if newest_word:
        env[NEWEST_WORD] = newest_word
    log = home / "ingest.stderr.log"
    env[LAUNCHED] = repr(time.time())
    started = time.perf_counter()
    with log.open("wb") as stderr:
        child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=stderr)
        assert child.stdout is not None
        out = child.stdout.read()  # stdout is one JSON line; stderr goes to a file, so nothing blocks
        _, status, usage = os.wait4(child.pid, 0)  # this child's own rusage (peak RSS)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-15:]
        raise RuntimeError("ingest failed (exit %d):\n%s" % (child.returncode, "\n".join(tail)))
    result = json.loads(out.decode("utf-8").strip().splitlines()[-1])
    return IngestRun(
        via="moraine.ingest.pipeline.ingest_once (library, child process)",
        wall_seconds=wall,
        ingest_seconds=float(result["ingest_seconds"]),
        raw_events=raw_events,
        stored_events=int(result["stored_events"]),
        raw_bytes=raw_bytes,
        peak_rss_mb=usage.ru_maxrss / 1024,  # Linux reports KiB
        files=int(result["files"]),
        errors=int(result["errors"]),
        cpu_seconds=usage.ru_utime + usage.ru_stime,
        embed_threads=embed_threads,
        embedded=result.get("embedded"),
        ingest_thread_cpu_seconds=result.get("ingest_thread_cpu_seconds"),
        checksums=result.get("checksums"),
        table_mib=result.get("table_mib"),
        workers=int(result.get("workers") or 0),
        own_peak_rss_mb=result.get("own_peak_rss_mb"),
        workers_peak_rss_mb=result.get("workers_peak_rss_mb"),
        workers_cpu_seconds=result.get("workers_cpu_seconds"),
        newest=result.get("newest"),
    )
