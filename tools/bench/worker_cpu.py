"""The ingest workers' CPU per event, and a digest of what they make: ``python -m tools.bench.worker_cpu``.

Runs the worker's job loop (``moraine.ingest.worker.run_job``) over every file of a generated corpus (see
``tools.corpus``) in this one process, as the pool would hand them out, with no store and no pipes; prints the events,
the CPU seconds of the loop (``time.process_time``; chunks are pickled as a worker sends them), microseconds per event, and a digest of the chunks' content
(events rows, postings, touches, turns, sessions, errors, stream positions and saved states). Two runs with the same
digest made the same rows, so a change that keeps the digest and lowers the figure is a pure CPU cut.

``--runs N`` repeats the loop in the same process (the chunk-term cache warms up in the first run as it does in a
worker over its first files) and prints each run's figures and the median; ``--json`` prints one JSON line instead.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from moraine.attention.extract import TOUCH_COLUMNS
from moraine.config import SourceConfig
from moraine.ingest.batch import Batch
from moraine.ingest.chunk import Chunk
from moraine.ingest.discovery import discover
from moraine.ingest.frames import write_frame
from moraine.ingest.worker import Job, run_job
from moraine.redact import ruleset

__all__ = ["Digest", "corpus_jobs", "main", "measure"]

BATCH_SIZE = 5000  # the config's default events per batch (and so per chunk)


@dataclass(frozen=True, slots=True)
class Measure:
    """One pass over the corpus: events made, CPU seconds spent, and the digest of every chunk's content."""

    events: int
    cpu_seconds: float
    digest: str
    parts: dict[str, str]

    @property
    def us_per_event(self) -> float:
        return self.cpu_seconds / max(self.events, 1) * 1e6


class Digest:
    """A running hash per kind of content (events, postings, touches, the rest) over its rows' ``repr``."""

    KINDS = ("events", "postings", "touches", "turns", "sessions", "errors", "positions")

    def __init__(self) -> None:
        self._hashes = {kind: hashlib.blake2b(digest_size=16) for kind in self.KINDS}

    def add(self, kind: str, value: Any) -> None:
        self._hashes[kind].update(repr(value).encode("utf-8", "surrogatepass") + b"\x00")

    def chunk(self, chunk: Chunk) -> None:
        """Fold one chunk (its rows in order, then its stream position and state)."""
        batch = chunk.batch
        for kind, rows in _rows(batch):
            for row in rows:
                self.add(kind, row)
        self.add("positions", (chunk.offset, chunk.line_no, chunk.last, chunk.finished, chunk.claims))
        self.add("positions", json.dumps(chunk.state, sort_keys=True, default=str))
        self.add("positions", (chunk.tally.events, chunk.tally.errors, sorted(chunk.tally.sessions)))

    def parts(self) -> dict[str, str]:
        return {kind: h.hexdigest()[:16] for kind, h in self._hashes.items()}

    def total(self) -> str:
        whole = hashlib.blake2b(digest_size=16)
        for kind in self.KINDS:
            whole.update(self._hashes[kind].digest())
        return whole.hexdigest()[:16]


def _rows(batch: Batch) -> Iterator[tuple[str, Iterator[Any]]]:
    yield "events", iter(batch.events)
    yield "postings", iter(batch.postings)
    yield "touches", (tuple(t.get(c) for c in TOUCH_COLUMNS) for t in batch.touches)
    yield "turns", ((key, asdict(turn)) for key, turn in batch.turns.items())
    yield "sessions", ((key, state.to_json(), meta) for key, (state, meta) in batch.sessions.items())
    yield "errors", (row[1:] for row in batch.errors)  # row[0] is the wall-clock time it was recorded


def corpus_jobs(corpus: Path, redact: bool) -> list[Job]:
    """Return one job per file of the corpus's sources (stream ids in discovery order), as a first pass makes."""
    manifest = json.loads((corpus / "manifest.json").read_text(encoding="utf-8"))
    jobs: list[Job] = []
    for entry in manifest["sources"]:
        source = SourceConfig(
            entry["name"], entry["harness"], str(corpus / entry["glob"]), str(corpus / entry["root"])
        )
        for path in discover(source):
            index = len(jobs) + 1
            jobs.append(Job(index, source, path, index, os.stat(path), 0, None, redact, BATCH_SIZE))
    return jobs


def measure(jobs: list[Job], digest_on: bool = True) -> Measure:
    """Run every job to its end; return the events, the CPU seconds of the loop (the digest's own time taken
    out) and the digest."""
    digest = Digest()
    sink = open(os.devnull, "wb")  # noqa: SIM115  (closed below)
    events = 0
    hashing = 0.0
    clock = time.process_time
    started = clock()
    for job in jobs:
        for chunk in run_job(job):
            if chunk.failure is not None:
                raise RuntimeError(chunk.failure)
            write_frame(sink, chunk, job.id, chunk.last)  # pickled as the worker sends it
            events += chunk.tally.events
            if digest_on:
                before = clock()
                digest.chunk(chunk)
                hashing += clock() - before
    spent = clock() - started - hashing
    sink.close()
    return Measure(events, spent, digest.total() if digest_on else "-", digest.parts() if digest_on else {})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.worker_cpu", description=__doc__)
    parser.add_argument("--corpus", type=Path, required=True, help="a tools.corpus directory (manifest.json)")
    parser.add_argument("--no-redact", action="store_true", help="redaction off (the bench runs it on)")
    parser.add_argument("--runs", type=int, default=1, help="passes in this process (median reported)")
    parser.add_argument("--limit", type=int, default=0, help="only the first N files")
    parser.add_argument("--no-digest", action="store_true", help="skip the digest (CPU of the loop alone)")
    parser.add_argument("--json", action="store_true", help="one JSON line")
    args = parser.parse_args(argv)
    redact = not args.no_redact
    jobs = corpus_jobs(args.corpus, redact)
    if args.limit:
        jobs = jobs[: args.limit]
    if redact:
        ruleset()  # built before the first job, as a worker does
    runs = [measure(jobs, not args.no_digest) for _ in range(args.runs)]
    figures = [run.us_per_event for run in runs]
    last = runs[-1]
    result = {
        "events": last.events,
        "files": len(jobs),
        "redact": redact,
        "cpu_seconds": [round(run.cpu_seconds, 3) for run in runs],
        "us_per_event": [round(f, 1) for f in figures],
        "median_us_per_event": round(statistics.median(figures), 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),  # Linux: KiB
        "digest": last.digest,
        "parts": last.parts,
    }
    if len({run.digest for run in runs}) > 1:
        result["digest"] = "DIFFERS BETWEEN RUNS: " + " ".join(run.digest for run in runs)
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
        return 0
    for key, value in result.items():
        sys.stdout.write(f"{key}: {value}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
