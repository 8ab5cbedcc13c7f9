"""The background vectorizer: embeds user and assistant messages that are already searchable, resumably.

Work is found through the ingest checkpoints: a stream's rows below its checkpoint offset are published (postings
included), so they are searchable lexically. Per stream, ``vector_marks`` records how far (source offset, in which
generation) vectors exist; a rewritten stream (new generation) has its vectors deleted and is embedded again.
Nothing here runs in the ingest path: the ingest never waits for the embedder. The backlog is worked through
newest first: streams whose sessions were active last come first.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from dataclasses import dataclass

from moraine.semantic.embedder import Embedder
from moraine.store.client import Store
from moraine.store.vectorizing import (
    VECTOR_TYPES,
    EmbedRow,
    VectorProgress,
    delete_stream_vectors,
    events_at_offset,
    events_to_embed,
    insert_vectors,
    mark_stream,
    session_filters,
    stream_marks,
    vector_progress,
)

__all__ = ["VECTOR_TYPES", "BackgroundVectorizer", "VectorProgress", "vector_progress", "vectorize_pending"]

logger = logging.getLogger("moraine.semantic")


@dataclass(frozen=True, slots=True)
class _Pending:
    stream_id: int
    generation: int
    start: int  # first source offset without vectors
    end: int  # the checkpoint offset: rows below it are published


def _pending_streams(store: Store) -> list[_Pending]:
    """Streams with published events that have no vectors yet, newest first (by their sessions' last activity),
    so recent history is hybrid-ranked soonest; within a stream, events go in file order (the watermark)."""
    out = []
    for mark in stream_marks(store):
        if mark.marked and mark.mark_generation != mark.generation:
            delete_stream_vectors(store, mark.stream_id)
            start = 0
        else:
            start = mark.mark_offset if mark.marked else 0
        if start < mark.offset:
            out.append(_Pending(mark.stream_id, mark.generation, start, mark.offset))
    return out


def _events(store: Store, pending: _Pending, limit: int) -> tuple[list[EmbedRow], int]:
    """Return the next events of a stream to embed and the watermark to record once they have vectors."""
    rows = events_to_embed(store, pending.stream_id, pending.start, pending.end, limit)
    if len(rows) < limit:
        return rows, pending.end
    last = int(rows[-1][6])
    head = [r for r in rows if int(r[6]) < last]
    if head:
        return head, last  # events of the last offset come whole in the next call
    # one source line holding more than ``limit`` events: take them all
    return events_at_offset(store, pending.stream_id, last), last + 1


def vectorize_pending(
    store: Store,
    embedder: Embedder,
    batch: int = 16,
    budget: int | None = None,
    stop: threading.Event | None = None,
) -> int:
    """Embed published events without vectors (at most ``budget`` of them); return how many were embedded."""
    done = 0
    for pending in _pending_streams(store):
        while pending.start < pending.end:
            if (stop is not None and stop.is_set()) or (budget is not None and done >= budget):
                return done
            rows, mark = _events(store, pending, batch)
            if rows:
                filters = session_filters(store, {int(r[0]) for r in rows})
                vectors = embedder.passages([str(r[5]) for r in rows])
                out = []
                for row, vector in zip(rows, vectors, strict=True):
                    harness, source = filters.get(int(row[0]), ("", ""))
                    key, seq, turn_seq, type_, ts, _text, offset = row
                    out.append([key, seq, turn_seq, type_, harness, source, ts, embedder.name, vector,
                                pending.stream_id, offset])  # fmt: skip
                insert_vectors(store, out)
                done += len(rows)
            mark_stream(store, pending.stream_id, pending.generation, mark, embedder.name)
            pending = _Pending(pending.stream_id, pending.generation, mark, pending.end)
    return done


class BackgroundVectorizer:
    """Embed pending events in a daemon thread until stopped; idle polls every ``poll_seconds``."""

    def __init__(self, store: Store, embedder: Embedder, poll_seconds: float = 5.0, batch: int = 16) -> None:
        self.store = store
        self.embedder = embedder
        self.poll_seconds = poll_seconds
        self.batch = batch
        self.stop = threading.Event()
        self.embedded = 0
        self.last_error: str | None = None
        self._thread = threading.Thread(target=self.run, name="moraine-vectorizer", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def shutdown(self, timeout: float = 30.0) -> None:
        """Stop after the current batch and wait for the thread (bounded)."""
        self.stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def run(self) -> None:
        """Embed until ``stop`` is set, in the calling thread (``start`` runs it in a thread of its own)."""
        _lower_priority()
        while not self.stop.is_set():
            try:
                n = vectorize_pending(
                    self.store, self.embedder, self.batch, budget=self.batch * 8, stop=self.stop
                )
                self.embedded += n
                self.last_error = None
            except Exception as exc:  # the store may be briefly unavailable: log, wait, retry
                self.last_error = f"{type(exc).__name__}: {exc}"
                logger.warning("vectorizer pass failed: %s", self.last_error)
                n = 0
            if n == 0:
                self.stop.wait(self.poll_seconds)


def _lower_priority() -> None:
    """Give this thread the lowest CPU priority (Linux: per thread), so ingest and searches go first."""
    if sys.platform != "linux":
        return
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
    except OSError as exc:
        logger.info("vectorizer keeps its CPU priority: %s", exc)
