"""An ingest worker process: ``python -m moraine.ingest.worker LIFELINE_FD [--redact]``.

It reads jobs (one stream each: a file, where to start and the state to start from) from stdin and writes chunks
of finished rows (``moraine.ingest.chunk.Chunk``) to stdout, both as frames (``moraine.ingest.frames``). It never
opens the store: the process that started it owns the store and publishes the chunks in stream order.

It exits when stdin ends, and at once when the lifeline pipe ends: the parent holds that pipe's other end and never
writes to it, so the parent's death (even by SIGKILL) closes it.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from moraine.config import SourceConfig
from moraine.ingest.adapters import adapter_for, reader_for
from moraine.harness_api.adapter import Adapter, StreamContext
from moraine.ingest.batch import Batch
from moraine.ingest.checkpoints import Checkpoint
from moraine.ingest.chunk import Chunk
from moraine.ingest.frames import read_frame, write_frame
from moraine.ingest.parse import Parser, Tally
from moraine.ingest.stream import Stream
from moraine.redact import ruleset

__all__ = ["Job", "main", "run_job"]


@dataclass(frozen=True, slots=True)
class Job:
    """One stream to read: from ``start`` (None: the beginning) to the end of the file."""

    id: int
    source: SourceConfig
    path: Path
    stream_id: int
    stat: os.stat_result
    generation: int
    start: Checkpoint | None
    redact: bool
    batch_size: int
    adapter: Adapter | None = None  # None: the harness's registered adapter


def run_job(job: Job) -> Iterator[Chunk]:
    """Read the job's stream and yield its chunks (the last one has ``last`` set)."""
    adapter = job.adapter or adapter_for(job.source.harness)
    reader = reader_for(job.source.format)
    if adapter is None or reader is None:
        raise ValueError(f"no adapter or reader for source {job.source.name}")
    stream = Stream(
        job.source,
        job.stream_id,
        job.path,
        job.stat,
        StreamContext(job.path, job.source.name),
        None,
        generation=job.generation,
        byte_offsets=reader.byte_offsets,
    )
    if job.start is not None:
        stream.resume(job.start)
    parser = Parser(job.redact, claims=True)
    for _ in parser.read(reader, adapter, stream):
        batch = parser.batch
        if batch.full(job.batch_size) or len(batch.errors) >= job.batch_size:
            yield _cut(job, parser, stream, last=False)
    yield _cut(job, parser, stream, last=True)


def _cut(job: Job, parser: Parser, stream: Stream, last: bool) -> Chunk:
    chunk = Chunk(
        job.id,
        parser.batch,
        stream.offset,
        stream.line_no,
        stream.state(job.redact),
        parser.tally,
        parser.claims or [],
        last=last,
        finished=stream.finished,
    )
    parser.batch = Batch()
    parser.tally = Tally()
    parser.claims = []
    return chunk


def _watch_lifeline(fd: int) -> None:
    try:
        while os.read(fd, 1):
            pass
    finally:
        os._exit(1)  # the parent is gone: nobody will read what this process makes


def main(argv: list[str]) -> int:
    """Serve jobs from stdin until it ends."""
    threading.Thread(target=_watch_lifeline, args=(int(argv[0]),), daemon=True).start()
    out: IO[bytes] = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # stray prints must not corrupt the frames
    jobs: IO[bytes] = os.fdopen(0, "rb")
    if "--redact" in argv:
        ruleset()  # built once per process (1-2 s): before the first job arrives
    while True:
        job = read_frame(jobs)
        if job is None:
            return 0
        if not isinstance(job, Job):
            raise TypeError(f"expected a Job, got {type(job).__name__}")
        try:
            for chunk in run_job(job):
                write_frame(out, chunk, job.id, chunk.last)
        except Exception:  # a bug, not a bad record (those are ingest errors): report it, the pass stops
            failed = Chunk(job.id, last=True, failure=traceback.format_exc(limit=20))
            write_frame(out, failed, job.id, True)
            return 1


if __name__ == "__main__":
    # Run the imported module's main, not this __main__ copy: the jobs unpickle as moraine.ingest.worker.Job.
    from moraine.ingest import worker
    from moraine.private_files import restrict_process

    restrict_process()  # umask 077: anything a worker creates is user-only
    raise SystemExit(worker.main(sys.argv[1:]))
