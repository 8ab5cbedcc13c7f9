"""The worker pool: ingest worker processes (``moraine.ingest.worker``) reading streams for the store's owner.

Jobs (one stream each) go to the worker with the fewest unfinished ones; each worker has a reader thread that
collects its chunks. The owner takes a job's chunks in the order it submitted jobs (``chunks``), so output and
checkpoints are those of an in-process pass. Chunks of later jobs wait in memory, up to ``buffer_bytes`` in all;
past that a worker running ahead is no longer read, and blocks on its full pipe.

A worker that dies, or fails on a job, raises ``IngestWorkerError`` where its chunks are awaited: never a hang,
and nothing of the unfinished stream is published (its checkpoint stays where it was). Workers hold the read end of
a lifeline pipe whose write end only this process holds: they exit when it closes, also when this process is killed.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from moraine.child_env import child_command, child_cwd, child_env
from moraine.errors import IngestWorkerError
from moraine.ingest.chunk import Chunk
from moraine.ingest.frames import read_raw, write_frame
from moraine.ingest.worker import Job

__all__ = ["DEFAULT_BUFFER_BYTES", "WorkerPool"]

DEFAULT_BUFFER_BYTES = 256 * 1024 * 1024
_QUEUED_JOBS = 2  # unfinished jobs per worker: the one it reads and the next, so it never waits for the owner
_CLOSE_SECONDS = 10.0


@dataclass(eq=False, slots=True)
class _Worker:
    process: subprocess.Popen[bytes]
    lifeline: int  # the write end, never written
    jobs: deque[int] = field(default_factory=deque)  # submitted, last chunk not received yet
    inbox: deque[tuple[int, bool, bytes]] = field(default_factory=deque)
    dead: bool = False
    thread: threading.Thread | None = None


class WorkerPool:
    """``count`` worker processes; use as a context manager (leaving it stops them)."""

    def __init__(self, count: int, redact: bool, buffer_bytes: int = DEFAULT_BUFFER_BYTES) -> None:
        self.buffer_bytes = buffer_bytes
        self._cond = threading.Condition()
        self._buffered = 0
        self._current: int | None = None
        self._closing = False
        self._owners: dict[int, _Worker] = {}
        self._paths: dict[int, Path] = {}
        self._workers: list[_Worker] = []
        try:
            for _ in range(count):
                self._workers.append(self._start(redact))
        except BaseException:
            self.close(kill=True)
            raise

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        self.close(kill=exc is not None)

    def _start(self, redact: bool) -> _Worker:
        read_end, write_end = os.pipe()
        command = child_command("moraine.ingest.worker", str(read_end))
        try:
            process = subprocess.Popen(
                [*command, "--redact"] if redact else command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                pass_fds=(read_end,),
                env=child_env(),
                cwd=child_cwd(),
            )
        except OSError as exc:
            os.close(write_end)
            raise IngestWorkerError(f"cannot start an ingest worker: {exc}") from exc
        finally:
            os.close(read_end)
        worker = _Worker(process, write_end)
        worker.thread = threading.Thread(
            target=self._read, args=(worker,), name=f"moraine-ingest-worker-{process.pid}", daemon=True
        )
        worker.thread.start()
        return worker

    def hungry(self) -> bool:
        """Return whether a worker could take another job now."""
        with self._cond:
            return self._hungry()

    def _hungry(self) -> bool:
        if self._buffered >= self.buffer_bytes // 2:
            return False
        return any(not w.dead and len(w.jobs) < _QUEUED_JOBS for w in self._workers)

    def submit(self, job: Job) -> None:
        """Give ``job`` to the least busy worker.

        Raises:
            IngestWorkerError: the worker is gone.
        """
        with self._cond:
            worker = min(self._workers, key=lambda w: (w.dead, len(w.jobs)))
            if worker.dead:
                raise self._died(worker, job.id, job.path)
            worker.jobs.append(job.id)
            self._owners[job.id] = worker
            self._paths[job.id] = job.path
        stdin = worker.process.stdin
        assert stdin is not None
        try:
            write_frame(stdin, job)
        except OSError as exc:
            raise self._died(worker, job.id, job.path) from exc

    def chunks(self, job: int, refill: Callable[[], bool] | None = None) -> Iterator[Chunk]:
        """Yield the chunks of ``job`` as they arrive; call ``refill`` (the next submit) whenever a worker is idle.

        ``refill`` returns False when it has nothing more to submit.

        Raises:
            IngestWorkerError: the job's worker died or failed on it.
        """
        worker = self._owners.pop(job)
        path = self._paths.pop(job)
        with self._cond:
            self._current = job
            self._cond.notify_all()
        while True:
            frame = None
            with self._cond:
                while True:
                    if worker.inbox:
                        frame = worker.inbox.popleft()
                        self._buffered -= len(frame[2])
                        self._cond.notify_all()
                        break
                    if worker.dead:
                        raise self._died(worker, job, path)
                    if refill is not None and self._hungry():
                        break
                    self._cond.wait()
            if frame is None:
                if refill is not None and not refill():
                    refill = None
                continue
            chunk: Chunk = pickle.loads(frame[2])
            if chunk.failure is not None:
                raise IngestWorkerError(f"an ingest worker failed reading {path}:\n{chunk.failure}")
            yield chunk
            if chunk.last:
                return

    def _died(self, worker: _Worker, job: int, path: Path) -> IngestWorkerError:
        try:
            code = worker.process.wait(timeout=_CLOSE_SECONDS)
        except subprocess.TimeoutExpired:
            code = None
        how = "stopped answering" if code is None else f"exited with code {code}"
        return IngestWorkerError(
            f"ingest worker (pid {worker.process.pid}) {how} while reading {path}; "
            "nothing after its last published batch was kept, the next pass reads it again"
        )

    def _read(self, worker: _Worker) -> None:
        source = worker.process.stdout
        assert source is not None
        try:
            while True:
                frame = read_raw(source)
                if frame is None:
                    return
                job, last, payload = frame
                with self._cond:
                    while self._buffered > self.buffer_bytes and job != self._current and not self._closing:
                        self._cond.wait()
                    worker.inbox.append(frame)
                    self._buffered += len(payload)
                    if last and worker.jobs and worker.jobs[0] == job:
                        worker.jobs.popleft()
                    self._cond.notify_all()
        except (OSError, EOFError, ValueError):
            return  # a broken pipe is a dead worker: reported where its chunks are awaited
        finally:
            with self._cond:
                worker.dead = True
                self._cond.notify_all()

    def close(self, kill: bool = False) -> None:
        """Stop the workers: let them finish (they are idle after the last chunk was taken), or ``kill`` them."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        for worker in self._workers:
            if kill:
                worker.process.kill()
            try:
                if worker.process.stdin is not None:
                    worker.process.stdin.close()
            except OSError:
                pass  # a dead worker's pipe: nothing to flush
            os.close(worker.lifeline)
        for worker in self._workers:
            try:
                worker.process.wait(timeout=_CLOSE_SECONDS)
            except subprocess.TimeoutExpired:
                worker.process.kill()
                worker.process.wait()
            if worker.thread is not None:
                worker.thread.join(_CLOSE_SECONDS)
            if worker.process.stdout is not None:
                worker.process.stdout.close()
        self._workers = []
