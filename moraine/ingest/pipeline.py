"""The ingest pipeline: discovered files -> reader -> adapter -> sequencing, redaction, rows -> batched publish.

Per stream (one trace file) it resumes from the checkpoint (deleting the unpublished tail of an interrupted publish
first), detects truncated or rewritten files (their rows are replaced: ``generation`` goes up), and keeps the
adapter's and the sessions' state in the checkpoint so a file resumes mid-way with the same numbering. A file read
under an older revision of its harness's adapter (``Harness.revision``) is read again the same way, changed or not.
Nothing in a trace file can stop the pass: unreadable records and adapter failures become ``ingest_errors`` rows.

With ``workers`` > 0, a pass with at least ``worker_min_bytes`` to read hands the reading of its streams (parsing,
adapters, redaction, rows) to worker processes (``moraine.ingest.workers``); this process, the store's owner, takes
their chunks in stream order and publishes them as it publishes its own rows. Smaller passes stay in-process.
"""

from __future__ import annotations

import gc
import logging
import os
import pickle
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from moraine.config import Config, SourceConfig, glob_root
from moraine.errors import IngestWorkerError, StoreError
from moraine.ingest.adapters import HarnessLoadError, adapter_for, reader_for, revision_for
from moraine.harness_api.adapter import Adapter, StreamContext
from moraine.ingest.batch import Batch
from moraine.ingest.checkpoints import Checkpoint, load_checkpoints
from moraine.ingest.chunk import rekey
from moraine.ingest.discovery import discover, newest_first
from moraine.ingest.forgetting import FORGOTTEN_MARK, scrub_checkpoint
from moraine.ingest.identity import FileIdentity, stream_id
from moraine.ingest.moves import Inodes, index_inodes, moved_from
from moraine.ingest.parse import Parser, Tally, alternate_key
from moraine.ingest.progress import Progress
from moraine.ingest.publisher import Publisher
from moraine.harness_api.reader import Reader
from moraine.ingest.rollback import roll_back_vanished
from moraine.ingest.stream import Stream, empty_checkpoint, rewritten
from moraine.ingest.worker import Job
from moraine.ingest.workers import WorkerPool
from moraine.redact import ruleset
from moraine.store.client import Store
from moraine.store.forget import forgotten_keys
from moraine.store.recovery import delete_stream, delete_stream_tail

__all__ = ["WORKER_MIN_BYTES", "IngestSummary", "Ingestor", "ingest_once", "ingest_paths"]

logger = logging.getLogger(__name__)

# A pass reading less stays in-process (starting workers costs ~1-2 s each).
WORKER_MIN_BYTES = 16 * 1024 * 1024
_WINDOW = 256  # streams opened ahead of the one being published (workers read them meanwhile)
_GC_THRESHOLD = 50_000

_Entry = tuple[SourceConfig, Adapter, Reader, Path]


@dataclass(slots=True)
class IngestSummary:
    """What one pass did."""

    files: int = 0
    unchanged: int = 0
    sessions: int = 0
    events: int = 0
    errors: int = 0
    seconds: float = 0.0
    no_adapter: list[str] = field(default_factory=list)
    rewritten: int = 0
    reread: int = (
        0  # files read again because their harness's adapter changed (a higher ``Harness.revision``)
    )
    workers: int = 0  # worker processes this pass used (0: in-process)


class Ingestor:
    """Runs ingest passes against one store; keeps checkpoints in memory between passes (watch mode)."""

    def __init__(
        self,
        store: Store,
        batch_size: int = 5000,
        redact: bool = True,
        progress: Progress | None = None,
        stop: threading.Event | None = None,
        adapters: dict[str, Adapter] | None = None,
        workers: int = 0,
        worker_min_bytes: int = WORKER_MIN_BYTES,
    ) -> None:
        self.store = store
        self.adapters = dict(adapters or {})  # source name -> adapter, overriding the harness registry
        self.batch_size = batch_size
        self.redact = redact
        self.progress = progress
        self.stop = stop or threading.Event()
        self.workers = workers
        self.worker_min_bytes = worker_min_bytes
        self._checkpoints: dict[str, dict[int, Checkpoint]] = {}
        self._owners: dict[str, dict[int, int]] = {}
        self._inodes: dict[str, Inodes] = {}  # source -> its checkpoints by file (moraine.ingest.moves)
        self._parser = Parser(redact, self._owners)
        self._batch_streams: dict[int, Stream] = {}
        self._summary = IngestSummary()
        self._publisher = Publisher(store)
        self._publishing: list[tuple[Stream, Checkpoint]] = []  # the streams of the batch being written
        self._custom: dict[str, bytes] = {}  # source name -> its pickled custom adapter (for workers)

    def run(
        self,
        sources: Sequence[SourceConfig],
        paths: dict[str, list[Path]] | None = None,
        adapters: dict[str, Adapter] | None = None,
    ) -> IngestSummary:
        """Ingest every file of ``sources`` (or only ``paths[source.name]``); return what was done."""
        started = time.monotonic()
        if self.redact:
            ruleset()  # built once per process (1-2 s): before the first file, not on the first line watched
        self._summary = IngestSummary()
        self._parser.tally = Tally()
        self._inodes.clear()  # built again from the checkpoints when a new file appears
        plan: list[_Entry] = []
        ready: list[SourceConfig] = []  # the sources with an adapter and a reader, files or not
        self._custom = {}
        for source in sources:
            custom = (adapters or {}).get(source.name) or self.adapters.get(source.name)
            try:
                adapter = custom or adapter_for(source.harness)
                reader = reader_for(source.format)
            except HarnessLoadError as exc:  # a broken plugin: its source's error, the other sources read
                logger.error("source %s: %s", source.name, exc)
                self._parser.error(source.name, source.glob, 0, 0, "broken_harness", str(exc))
                continue
            if adapter is None or reader is None:
                self._summary.no_adapter.append(source.name)
                continue
            if custom is not None:
                self._custom[source.name] = _pickled(custom)
            files = paths[source.name] if paths is not None and source.name in paths else discover(source)
            ready.append(source)
            plan.extend((source, adapter, reader, path) for path in files)
        # Newest first: the sessions worked on last are searchable after the first batch (explicit paths keep order).
        order = newest_first([path for *_, path in plan]) if paths is None else range(len(plan))
        entries = [plan[index] for index in order]
        thresholds = gc.get_threshold()  # millions of short-lived acyclic objects: collect less often (~2%)
        gc.set_threshold(max(thresholds[0], _GC_THRESHOLD), *thresholds[1:])
        try:
            for source in ready:
                self._source_checkpoints(source)  # rolls back the interrupted publishes of vanished files
            pool = self._pool(entries)
            with pool or nullcontext():
                self._pass(entries, pool, alone_first=paths is None)
            self._flush()
            self._settle()
        except (StoreError, IngestWorkerError):
            self._forget()  # a publish may have stopped half-way: the next pass must start from the store's view
            raise
        finally:
            gc.set_threshold(*thresholds)
            self._settle_quietly()
        tally = self._parser.tally
        self._summary.events, self._summary.errors = tally.events, tally.errors
        self._summary.sessions = len(tally.sessions)
        self._summary.seconds = time.monotonic() - started
        return self._summary

    def _pool(self, entries: list[_Entry]) -> WorkerPool | None:
        """Start the workers when the pass is worth it (enough bytes to read), else return None."""
        if self.workers <= 0 or not entries:
            return None
        pending = 0
        for source, _, reader, path in entries:
            if not reader.byte_offsets:
                continue
            try:
                size = path.stat().st_size
            except OSError:
                continue
            committed = self._checkpoints.get(source.name, {}).get(stream_id(source.name, path.absolute()))
            if committed is not None and committed.revision < revision_for(source.harness):
                committed = None  # read again from the start
            pending += size - (committed.offset if committed and committed.offset <= size else 0)
        if pending < self.worker_min_bytes:
            return None
        self._summary.workers = self.workers
        logger.info("reading %.0f MB with %d ingest worker(s)", pending / 1e6, self.workers)
        return WorkerPool(self.workers, self.redact)

    def _pass(self, entries: list[_Entry], pool: WorkerPool | None, alone_first: bool) -> None:
        """Read every entry in order; workers read ahead of the one being published (up to ``_WINDOW``)."""
        opened: deque[tuple[_Entry, Stream | None, int | None]] = deque()  # (entry, stream, job id)
        ahead = iter(enumerate(entries))

        def open_next() -> bool:  # open one more entry (a job when a worker can read it); False at the end
            if self.stop.is_set() or len(opened) >= _WINDOW:
                return False
            following = next(ahead, None)
            if following is None:
                return False
            index, entry = following
            source, _, reader, path = entry
            stream = self._open(source, reader, path)
            job = None
            # The newest stream is read here while the workers start (it is published on its own, at once).
            if (
                stream is not None
                and pool is not None
                and (index > 0 or not alone_first)
                and reader.byte_offsets
            ):
                job = self._job(stream, index)
                if job is not None:
                    pool.submit(job)
            opened.append((entry, stream, None if job is None else job.id))
            return True

        def refill() -> bool:  # open entries until one more job was submitted; False when none can be now
            while open_next():
                if opened[-1][2] is not None:
                    return True
            return False

        done = 0
        while opened or open_next():
            if self.stop.is_set():
                break
            (source, adapter, reader, _), stream, job = opened.popleft()
            while pool is not None and pool.hungry() and refill():
                pass
            if stream is not None:
                self._summary.files += 1
                if job is None:
                    self._read(stream, adapter, reader)
                else:
                    assert pool is not None
                    self._consume(stream, pool, job, refill)
            done += 1
            if done == 1 and len(entries) > 1 and alone_first:
                self._flush()  # the newest file is published on its own: searchable without waiting for a batch
            if self.progress:
                self.progress(done, len(entries), self._parser.tally.events)

    def _forget(self) -> None:
        """Drop every cached checkpoint and unpublished row (after a store or worker failure)."""
        self._settle_quietly()
        self._checkpoints.clear()
        self._owners.clear()
        self._parser.batch = Batch()
        self._batch_streams = {}

    # -- streams -------------------------------------------------------------------------------------------------

    def _source_checkpoints(self, source: SourceConfig) -> dict[int, Checkpoint]:
        found = self._checkpoints.get(source.name)
        if found is None:
            self._settle()  # the store is only used by one thread at a time
            found = load_checkpoints(self.store, source.name)
            roll_back_vanished(self.store, source, found)
            self._checkpoints[source.name] = found
            self._owners[source.name] = {
                key: cp.stream_id for cp in found.values() for key in cp.session_keys()
            }
        return found

    def _open(self, source: SourceConfig, reader: Reader, path: Path) -> Stream | None:
        """Return the stream of ``path`` positioned where reading resumes; None when there is nothing to read."""
        path = path.absolute()
        sid = stream_id(source.name, path)
        committed = self._source_checkpoints(source).get(sid)
        try:
            stat = path.stat()
        except OSError as exc:
            self._parser.error(source.name, str(path), 0, 0, "unreadable", exc.strerror or str(exc))
            return None
        if committed is not None and committed.state.get(FORGOTTEN_MARK) and not committed.in_flight:
            self._summary.unchanged += 1  # every session of the file was forgotten: never read it again
            return None
        if committed is None and reader.byte_offsets:
            self._take_over_moved(source, sid, path, stat)
        saved_identity = FileIdentity.loads(committed.file_identity) if committed else None
        revision = revision_for(source.harness)
        outdated = committed is not None and committed.revision < revision
        # A SQLite source in WAL mode commits into its -wal file: the database file's stat says nothing then.
        wal_pending = not reader.byte_offsets and Path(f"{path}-wal").exists()
        if (
            committed
            and not committed.in_flight
            and saved_identity
            and saved_identity.unchanged(stat)
            and not wal_pending
            and not outdated
        ):
            self._summary.unchanged += 1
            return None
        stream = Stream(
            source,
            sid,
            path,
            stat,
            StreamContext(path, source.name),
            committed,
            byte_offsets=reader.byte_offsets,
            revision=revision,
        )
        if committed is not None:
            stream.generation = committed.generation
            if rewritten(committed, saved_identity, path, stat, reader):
                self._restart(stream, committed)
                self._summary.rewritten += 1
            elif outdated:
                self._restart(stream, committed)
                self._summary.reread += 1
            else:
                if committed.in_flight:
                    self._settle()
                    delete_stream_tail(self.store, sid, committed.offset, source.name, str(path))
                stream.resume(committed)
        return stream

    def _take_over_moved(self, source: SourceConfig, sid: int, path: Path, stat: os.stat_result) -> None:
        """When ``path`` (stream ``sid``) is a file moved from a path that is gone (``moraine.ingest.moves``), delete
        the rows read at the old path and hand its sessions' keys to ``sid`` at once, so streams opened before it but
        read after it still see them held: the file is read again from its new path under them."""
        checkpoints = self._source_checkpoints(source)
        index = self._inodes.get(source.name)
        if index is None:
            index = self._inodes[source.name] = index_inodes(checkpoints)
        moved = moved_from(checkpoints, index, path, stat)
        if moved is None or moved.stream_id in self._batch_streams:  # rows still to publish: keep them apart
            return
        keys = moved.session_keys()
        self._settle()
        delete_stream(self.store, moved.stream_id, keys, source.name, moved.path)
        del checkpoints[moved.stream_id]
        del index[(stat.st_dev, stat.st_ino)]
        owners = self._owners.setdefault(source.name, {})
        for key in keys:
            if owners.get(key) == moved.stream_id:
                owners[key] = sid
        logger.info(
            "%s was moved to %s: read again there, the rows of its old path replaced", moved.path, path
        )

    def _release(self, stream: Stream) -> None:
        """Give up the session keys a rewritten stream held before (see ``_restart``)."""
        owners = self._owners.setdefault(stream.source.name, {})
        for key in stream.released:
            if owners.get(key) == stream.id:
                del owners[key]
        stream.released = []

    def _read(self, stream: Stream, adapter: Adapter, reader: Reader) -> None:
        """Read ``stream`` in this process."""
        self._release(stream)
        self._batch_streams[stream.id] = stream
        for _ in self._parser.read(reader, adapter, stream):
            self._batch_streams.setdefault(stream.id, stream)
            if self._parser.batch.full(self.batch_size):
                self._flush()
        self._batch_streams.setdefault(stream.id, stream)

    def _job(self, stream: Stream, index: int) -> Job | None:
        """Return the job reading ``stream`` in a worker (None when its adapter cannot be sent to one)."""
        custom = self._custom.get(stream.source.name)
        if custom == b"":
            return None
        return Job(
            index,
            stream.source,
            stream.path,
            stream.id,
            stream.stat,
            stream.generation,
            stream.committed,  # None when the stream starts over
            self.redact,
            self.batch_size,
            None if custom is None else pickle.loads(custom),
        )

    def _consume(self, stream: Stream, pool: WorkerPool, job: int, refill: Callable[[], bool]) -> None:
        """Take the chunks a worker made of ``stream``, keyed as this process would have keyed them."""
        self._release(stream)
        owners = self._owners.setdefault(stream.source.name, {})
        renames: dict[int, int] = {}
        self._batch_streams[stream.id] = stream
        parser = self._parser
        for chunk in pool.chunks(job, refill):
            for harness_sid, key in chunk.claims:
                final = key
                held = owners.get(key, stream.id) != stream.id  # by another file: keep seqs apart
                if held:
                    final = renames[key] = alternate_key(stream.source.name, harness_sid, str(stream.path))
                owners[final] = stream.id
            rekey(chunk, renames)
            parser.batch.merge(chunk.batch)
            parser.tally.events += chunk.tally.events
            parser.tally.errors += chunk.tally.errors
            parser.tally.sessions |= chunk.tally.sessions
            stream.offset, stream.line_no, stream.saved = chunk.offset, chunk.line_no, chunk.state
            stream.finished = chunk.finished
            self._batch_streams.setdefault(stream.id, stream)
            if parser.batch.full(self.batch_size):
                self._flush()
        self._batch_streams.setdefault(stream.id, stream)

    def _restart(self, stream: Stream, committed: Checkpoint) -> None:
        """Forget a file's rows and state (rewritten, or read by an older adapter); it is read again from the start
        under a new generation."""
        keys = committed.session_keys()
        self._settle()
        delete_stream(self.store, stream.id, keys, stream.source.name, str(stream.path))
        stream.released = keys  # given up when the stream is read: streams before it still see them held
        stream.generation = committed.generation + 1
        stream.committed = None

    # -- publishing ----------------------------------------------------------------------------------------------

    def _flush(self) -> None:
        """Hand the batch to the publisher (after the previous one is written): rows, then checkpoints."""
        streams = list(self._batch_streams.values())
        batch = self._parser.batch
        if not streams and not batch.errors:
            return
        checkpoints = [s.checkpoint(self.redact) for s in streams]
        forgotten = forgotten_keys(self.store)  # read before every publish: a forget may have just happened
        if forgotten:
            batch.drop_sessions(forgotten)
            checkpoints = [scrub_checkpoint(cp, forgotten) or cp for cp in checkpoints]
        batch.freeze()
        self._parser.batch = Batch()
        self._batch_streams = {}
        self._settle()
        markers = [s.committed or empty_checkpoint(s) for s in streams]
        if forgotten:
            # The markers are copies of checkpoints this process committed, maybe before the forget: scrubbed too,
            # or the forgotten sessions' titles and prompts would be written back (a daemon keeps them in memory).
            markers = [scrub_checkpoint(cp, forgotten) or cp for cp in markers]
        self._publisher.start(batch, checkpoints, markers)
        self._publishing = list(zip(streams, checkpoints, strict=True))

    def _settle(self) -> None:
        """Wait for the batch being written; record its checkpoints, or raise its failure."""
        publishing, self._publishing = self._publishing, []
        if not self._publisher.settle():
            return
        for stream, cp in publishing:
            stream.committed = cp
            self._checkpoints.setdefault(stream.source.name, {})[stream.id] = cp

    def _settle_quietly(self) -> None:
        """Wait for the batch being written; after a failure forget every cached checkpoint instead of raising."""
        try:
            self._settle()
        except BaseException:
            self._checkpoints.clear()
            self._owners.clear()


def _pickled(adapter: Adapter) -> bytes:
    """Return ``adapter`` pickled for the workers, or b"" when it cannot be (its streams are read in-process)."""
    try:
        return pickle.dumps(adapter, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return b""


def ingest_once(
    store: Store,
    config: Config,
    sources: Iterable[str] | None = None,
    paths: dict[str, list[Path]] | None = None,
    progress: Progress | None = None,
) -> IngestSummary:
    """Run one pass over the enabled sources (or the named ones, or explicit paths per source name)."""
    if sources is not None:
        chosen = [config.source(name) for name in sources]
    elif paths is not None:
        chosen = [config.source(name) for name in paths]
    else:
        chosen = [s for s in config.sources if s.enabled]
    ingestor = Ingestor(
        store,
        batch_size=config.batch_size,
        redact=config.redact,
        progress=progress,
        workers=config.workers,
    )
    return ingestor.run(chosen, paths)


def ingest_paths(
    store: Store,
    paths: Sequence[Path],
    source: str,
    harness: str,
    adapter: Adapter | None = None,
    batch_size: int = 5000,
    redact: bool = True,
    format: str = "jsonl",
    workers: int = 0,
    worker_min_bytes: int = WORKER_MIN_BYTES,
) -> IngestSummary:
    """Ingest explicit files (directories are searched for ``*.jsonl``) as one source (tests build corpora with it)."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(
                sorted(p for p in path.rglob("*.jsonl" if format == "jsonl" else "*") if p.is_file())
            )
        else:
            files.append(path)
    glob = str(Path(paths[0]) / "**" / "*.jsonl") if paths else "*.jsonl"
    config = SourceConfig(name=source, harness=harness, glob=glob, watch_root=glob_root(glob), format=format)
    ingestor = Ingestor(
        store, batch_size=batch_size, redact=redact, workers=workers, worker_min_bytes=worker_min_bytes
    )
    return ingestor.run([config], {source: files}, {source: adapter} if adapter is not None else None)
