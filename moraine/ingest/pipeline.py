"""The ingest pipeline: discovered files -> reader -> adapter -> sequencing, redaction, rows -> batched publish.

Per stream (one trace file) it resumes from the checkpoint (deleting the unpublished tail of an interrupted publish
first), detects truncated or rewritten files (their rows are replaced: ``generation`` goes up), and keeps the
adapter's and the sessions' state in the checkpoint so a file resumes mid-way with the same numbering.
Nothing in a trace file can stop the pass: unreadable records and adapter failures become ``ingest_errors`` rows.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from moraine.attention.extract import TouchContext, extract_touches
from moraine.config import Config, SourceConfig, glob_root
from moraine.errors import StoreError
from moraine.ids import session_key
from moraine.ingest.adapters import adapter_for, reader_for
from moraine.ingest.adapters.base import Adapter, StreamContext
from moraine.ingest.batch import Batch, SessionMeta
from moraine.ingest.checkpoints import Checkpoint, load_checkpoints
from moraine.ingest.discovery import discover, newest_first
from moraine.ingest.identity import FileIdentity, fingerprint, stream_id
from moraine.ingest.model import Event, EventType, IngestError, SessionInfo
from moraine.ingest.progress import Progress
from moraine.ingest.publisher import Publisher
from moraine.ingest.reader import ReadItem, Reader
from moraine.ingest.rollback import roll_back_vanished
from moraine.ingest.rows import clean, event_row, posting_terms, to_ms, to_utc
from moraine.ingest.sessions import SessionState
from moraine.ingest.validate import InvalidItem, check_event
from moraine.redact import redact_text, redact_value, ruleset
from moraine.store.client import Store
from moraine.store.recovery import delete_stream, delete_stream_tail

__all__ = ["IngestSummary", "Ingestor", "ingest_once", "ingest_paths"]

logger = logging.getLogger(__name__)


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


@dataclass(slots=True)
class _Stream:
    source: SourceConfig
    id: int
    path: Path
    stat: os.stat_result
    ctx: StreamContext
    committed: Checkpoint | None
    offset: int = 0
    line_no: int = 0
    generation: int = 0
    sessions: dict[str, SessionState] = field(default_factory=dict)
    byte_offsets: bool = True  # else positions are not bytes and the fingerprint hashes nothing
    meta: SessionMeta | None = None

    def checkpoint(self, redact: bool) -> Checkpoint:
        """Return the checkpoint of the current position (consistent with the current state).

        With ``redact`` the saved state is redacted like the rows are (an adapter may hold text it has not emitted
        yet, such as Claude Code's pending summaries); the state in memory stays as the adapter left it.
        """
        state = {
            "adapter": self.ctx.state,
            "sessions": {sid: s.to_json() for sid, s in self.sessions.items()},
        }
        saved = json.loads(json.dumps(state, default=str))
        identity = fingerprint(self.path, self.stat, self.offset if self.byte_offsets else 0).dumps()
        return Checkpoint(
            self.id,
            self.source.name,
            str(self.path),
            identity,
            self.offset,
            self.line_no,
            redact_value(saved) if redact else saved,
            self.generation,
        )


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
    ) -> None:
        self.store = store
        self.adapters = dict(adapters or {})  # source name -> adapter, overriding the harness registry
        self.batch_size = batch_size
        self.redact = redact
        self.progress = progress
        self.stop = stop or threading.Event()
        self._checkpoints: dict[str, dict[int, Checkpoint]] = {}
        self._owners: dict[str, dict[int, int]] = {}
        self._batch = Batch()
        self._batch_streams: dict[int, _Stream] = {}
        self._summary = IngestSummary()
        self._sessions_seen: set[int] = set()
        self._publisher = Publisher(store)
        self._publishing: list[tuple[_Stream, Checkpoint]] = []  # the streams of the batch being written

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
        self._sessions_seen = set()
        plan: list[tuple[SourceConfig, Adapter, Reader, Path]] = []
        ready: list[SourceConfig] = []  # the sources with an adapter and a reader, files or not
        for source in sources:
            adapter = (
                (adapters or {}).get(source.name)
                or self.adapters.get(source.name)
                or adapter_for(source.harness)
            )
            reader = reader_for(source.format)
            if adapter is None or reader is None:
                self._summary.no_adapter.append(source.name)
                continue
            files = paths[source.name] if paths is not None and source.name in paths else discover(source)
            ready.append(source)
            plan.extend((source, adapter, reader, path) for path in files)
        # Newest first: the sessions worked on last are searchable after the first batch (explicit paths keep order).
        order = newest_first([path for *_, path in plan]) if paths is None else range(len(plan))
        total = len(plan)
        thresholds = gc.get_threshold()  # millions of short-lived acyclic objects: collect less often (~2%)
        gc.set_threshold(max(thresholds[0], _GC_THRESHOLD), *thresholds[1:])
        try:
            for source in ready:
                self._source_checkpoints(source)  # rolls back the interrupted publishes of vanished files
            for done, index in enumerate(order, 1):
                if self.stop.is_set():
                    break
                self._ingest_stream(*plan[index])
                if done == 1 and total > 1 and paths is None:
                    self._flush()  # the newest file is published on its own: searchable without waiting for a batch
                if self.progress:
                    self.progress(done, total, self._summary.events)
            self._flush()
            self._settle()
        except StoreError:
            self._forget()  # a publish may have stopped half-way: the next pass must start from the store's view
            raise
        finally:
            gc.set_threshold(*thresholds)
            self._settle_quietly()
        self._summary.sessions = len(self._sessions_seen)
        self._summary.seconds = time.monotonic() - started
        return self._summary

    def _forget(self) -> None:
        """Drop every cached checkpoint and unpublished row (after a store failure)."""
        self._settle_quietly()
        self._checkpoints.clear()
        self._owners.clear()
        self._batch = Batch()
        self._batch_streams = {}

    # -- streams -------------------------------------------------------------------------------------------------

    def _source_checkpoints(self, source: SourceConfig) -> dict[int, Checkpoint]:
        found = self._checkpoints.get(source.name)
        if found is None:
            self._settle()  # the store is only used by one thread at a time
            found = load_checkpoints(self.store, source.name)
            roll_back_vanished(self.store, source, found)
            self._checkpoints[source.name] = found
            owners: dict[int, int] = {}
            for cp in found.values():
                for saved in cp.saved_sessions().values():
                    key = saved.get("key")
                    if isinstance(key, int):
                        owners[key] = cp.stream_id
            self._owners[source.name] = owners
        return found

    def _ingest_stream(self, source: SourceConfig, adapter: Adapter, reader: Reader, path: Path) -> None:
        path = path.absolute()
        sid = stream_id(source.name, path)
        committed = self._source_checkpoints(source).get(sid)
        try:
            stat = path.stat()
        except OSError as exc:
            self._error(source.name, str(path), 0, 0, "unreadable", exc.strerror or str(exc))
            return
        saved_identity = FileIdentity.loads(committed.file_identity) if committed else None
        # A SQLite source in WAL mode commits into its -wal file: the database file's stat says nothing then.
        wal_pending = not reader.byte_offsets and Path(f"{path}-wal").exists()
        if (
            committed
            and not committed.in_flight
            and saved_identity
            and saved_identity.unchanged(stat)
            and not wal_pending
        ):
            self._summary.unchanged += 1
            return
        stream = _Stream(
            source,
            sid,
            path,
            stat,
            StreamContext(path, source.name),
            committed,
            byte_offsets=reader.byte_offsets,
        )
        if committed is not None:
            stream.generation = committed.generation
            if _rewritten(committed, saved_identity, path, stat, reader):
                self._restart(stream, committed)
            else:
                if committed.in_flight:
                    self._settle()
                    delete_stream_tail(self.store, sid, committed.offset, source.name, str(path))
                stream.offset, stream.line_no = committed.offset, committed.line_no
                adapter_state = committed.state.get("adapter")
                stream.ctx.state = adapter_state if isinstance(adapter_state, dict) else {}
                for harness_sid, saved in committed.saved_sessions().items():
                    stream.sessions[harness_sid] = SessionState.from_json(saved)
        self._summary.files += 1
        self._batch_streams[sid] = stream
        try:
            for item in reader.read(path, stream.offset, stream.line_no):
                self._batch_streams.setdefault(sid, stream)
                self._ingest_item(stream, adapter, item)
                stream.offset, stream.line_no = item.end, item.end_line
                if self._batch.full(self.batch_size):
                    self._flush()
        except OSError as exc:
            self._error(
                source.name, str(path), stream.line_no, stream.offset, "unreadable", exc.strerror or str(exc)
            )
        self._batch_streams.setdefault(sid, stream)

    def _restart(self, stream: _Stream, committed: Checkpoint) -> None:
        """Forget a rewritten file's rows and state; it is read again from the start under a new generation."""
        keys = [s["key"] for s in committed.saved_sessions().values() if isinstance(s.get("key"), int)]
        self._settle()
        delete_stream(self.store, stream.id, keys, stream.source.name, str(stream.path))
        owners = self._owners[stream.source.name]
        for key in keys:
            if owners.get(key) == stream.id:
                del owners[key]
        stream.generation = committed.generation + 1
        stream.committed = None
        self._summary.rewritten += 1

    # -- records -------------------------------------------------------------------------------------------------

    def _ingest_item(self, stream: _Stream, adapter: Adapter, item: ReadItem) -> None:
        if item.error is not None or item.record is None:
            error = item.error or IngestError("unreadable", "")
            self._item_error(stream, item, error.reason, error.detail)
            return
        try:
            emitted = list(adapter.normalize(item.record, stream.ctx))
        except Exception as exc:  # an adapter bug on one record must not stop the file: record it and go on
            logger.debug("adapter failed on %s:%s", stream.path, item.line_no, exc_info=True)
            self._item_error(stream, item, "adapter_error", f"{type(exc).__name__}: {exc}")
            return
        for out in emitted:
            try:
                if isinstance(out, Event):
                    self._event(stream, out, item)
                elif isinstance(out, SessionInfo):
                    self._info(stream, out)
                elif isinstance(out, IngestError):
                    self._item_error(stream, item, out.reason, out.detail)
                else:
                    raise InvalidItem(
                        f"adapter emitted {type(out).__name__}, not Event/SessionInfo/IngestError"
                    )
            except InvalidItem as exc:
                self._item_error(stream, item, "invalid_event", str(exc))

    def _item_error(self, stream: _Stream, item: ReadItem, reason: str, detail: str) -> None:
        self._error(stream.source.name, str(stream.path), item.line_no, item.offset, reason, detail)

    def _session(self, stream: _Stream, harness_sid: str) -> SessionState:
        state = stream.sessions.get(harness_sid)
        if state is None:
            owners = self._owners.setdefault(stream.source.name, {})
            key = session_key(stream.source.name, harness_sid)
            if (
                owners.get(key, stream.id) != stream.id
            ):  # another file already holds this session: keep seqs apart
                key = session_key(stream.source.name, f"{harness_sid}\0{stream.path}")
            owners[key] = stream.id
            state = SessionState(harness_sid, key)
            stream.sessions[harness_sid] = state
        return state

    def _meta(self, stream: _Stream) -> SessionMeta:
        meta = stream.meta
        if meta is None or meta.generation != stream.generation:  # one per stream, not one per event
            meta = SessionMeta(
                stream.source.name, stream.source.harness, stream.id, str(stream.path), stream.generation
            )
            stream.meta = meta
        return meta

    def _info(self, stream: _Stream, info: SessionInfo) -> None:
        if not isinstance(info.session, str) or not info.session:
            raise InvalidItem("session info without a session id")
        for name in ("title", "summary", "slug", "cwd", "model", "parent_session", "first_user_message"):
            value = getattr(info, name)
            if value is not None and not isinstance(value, str):
                raise InvalidItem(f"session info field {name} is {type(value).__name__}, not str")
            if isinstance(value, str):
                value = value[:_MAX_META_CHARS]
                setattr(info, name, clean(redact_text(value) if self.redact else value))
        if info.started_at is not None and not isinstance(info.started_at, datetime):
            raise InvalidItem("session info started_at is not a datetime")
        state = self._session(stream, info.session)
        state.apply_info(info, to_ms(to_utc(info.started_at)))
        self._batch.touch_session(state, self._meta(stream))

    def _event(self, stream: _Stream, event: Event, item: ReadItem) -> None:
        check_event(event)
        if self.redact:
            event.text = redact_text(event.text)
            event.arguments = redact_value(event.arguments)
            event.provenance = redact_value(event.provenance)
            if event.cwd:
                event.cwd = redact_text(event.cwd)
        event.text = clean(event.text)
        state = self._session(stream, event.session)
        previous_turn = state.turn
        seq, turn_seq, ordinal, opened = state.next_position(event)
        if opened and previous_turn is not None:
            self._batch.keep_turn(state.key, previous_turn)
        timestamp = to_utc(event.timestamp)
        ts_ms = to_ms(timestamp)  # events and postings take epoch milliseconds (the driver's fast path)
        if event.model:
            state.model = event.model
        state.add(seq, event, ts_ms)
        terms, doc_len = posting_terms(event)
        source = stream.source
        row = event_row(
            event, state.key, seq, turn_seq, ordinal, ts_ms, state.model, doc_len, stream.id, item
        )
        self._batch.add_event(row)
        if terms:
            self._batch.add_postings(
                terms,
                doc_len,
                (
                    state.key,
                    seq,
                    turn_seq,
                    event.type.value,
                    source.harness,
                    source.name,
                    ts_ms,
                    stream.id,
                    item.offset,
                ),
            )
        if event.type is EventType.TOOL_CALL and not event.is_moraine_tool:
            ctx = TouchContext(
                state.key,
                seq,
                turn_seq,
                source.harness,
                source.name,
                timestamp,
                event.cwd,
                stream.id,
                item.offset,
            )
            self._batch.touches.extend(extract_touches(event, ctx))
        self._batch.touch_session(state, self._meta(stream))
        self._sessions_seen.add(state.key)
        self._summary.events += 1

    def _error(self, source: str, path: str, line_no: int, offset: int, reason: str, detail: str) -> None:
        text = redact_text(detail) if self.redact else detail
        self._batch.add_error(source, path, line_no, offset, clean(reason)[:100] or "unknown", text)
        self._summary.errors += 1

    # -- publishing ----------------------------------------------------------------------------------------------

    def _flush(self) -> None:
        """Hand the batch to the publisher (after the previous one is written): rows, then checkpoints."""
        streams = list(self._batch_streams.values())
        if not streams and not self._batch.errors:
            return
        checkpoints = [s.checkpoint(self.redact) for s in streams]
        batch = self._batch
        batch.freeze()
        self._batch = Batch()
        self._batch_streams = {}
        self._settle()
        markers = [s.committed or _empty_checkpoint(s) for s in streams]
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


def _empty_checkpoint(stream: _Stream) -> Checkpoint:
    return Checkpoint(stream.id, stream.source.name, str(stream.path), "", 0, 0, {}, stream.generation)


def _rewritten(
    committed: Checkpoint, saved: FileIdentity | None, path: Path, stat: os.stat_result, reader: Reader
) -> bool:
    if saved is None:
        return committed.offset > 0
    if (stat.st_dev, stat.st_ino) != (saved.dev, saved.ino):
        return True
    if not reader.byte_offsets:
        return False
    if stat.st_size < committed.offset:
        return True
    return not saved.same_content(fingerprint(path, stat, committed.offset, saved.prefix_len))


_GC_THRESHOLD = 50_000
_MAX_META_CHARS = 4000  # session metadata is re-published with every batch: keep it small


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
    ingestor = Ingestor(store, batch_size=config.batch_size, redact=config.redact, progress=progress)
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
    ingestor = Ingestor(store, batch_size=batch_size, redact=redact)
    return ingestor.run([config], {source: files}, {source: adapter} if adapter is not None else None)
