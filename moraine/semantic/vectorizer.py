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
from typing import Any

from moraine.semantic.embedder import Embedder
from moraine.store.client import Store
from moraine.store.versions import next_version

__all__ = ["VECTOR_TYPES", "BackgroundVectorizer", "VectorProgress", "vector_progress", "vectorize_pending"]

logger = logging.getLogger("moraine.semantic")

VECTOR_TYPES = ("user_input", "assistant_response")
_VECTOR_COLUMNS = [
    "session_key", "seq", "turn_seq", "type", "harness", "source", "timestamp", "model", "vector", "stream_id",
    "source_offset",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class VectorProgress:
    vectors: int
    eligible: int  # user_input / assistant_response events with text

    @property
    def pending(self) -> int:
        return max(0, self.eligible - self.vectors)


@dataclass(frozen=True, slots=True)
class _Pending:
    stream_id: int
    generation: int
    start: int  # first source offset without vectors
    end: int  # the checkpoint offset: rows below it are published


def _pending_streams(store: Store) -> list[_Pending]:
    """Streams with published events that have no vectors yet, newest first (by their sessions' last activity),
    so recent history is hybrid-ranked soonest; within a stream, events go in file order (the watermark)."""
    rows = store.query(
        f"SELECT c.stream_id, c.generation, c.offset, m.generation, m.offset, m.stream_id != 0 "
        f"FROM (SELECT stream_id, generation, offset FROM {store.table('checkpoints')} FINAL) AS c "
        f"LEFT JOIN (SELECT stream_id, generation, offset FROM {store.table('vector_marks')} FINAL) AS m "
        "ON c.stream_id = m.stream_id "
        f"LEFT JOIN (SELECT stream_id, max(updated_at) AS newest FROM {store.table('sessions')} FINAL "
        "GROUP BY stream_id) AS s ON c.stream_id = s.stream_id "
        "ORDER BY s.newest DESC NULLS LAST, c.stream_id"
    )
    out = []
    for stream, generation, offset, m_generation, m_offset, marked in rows:
        if marked and int(m_generation) != int(generation):
            store.command(
                f"DELETE FROM {store.table('vectors')} WHERE stream_id = {{stream:UInt64}}",
                {"stream": int(stream)},
            )
            start = 0
        else:
            start = int(m_offset) if marked else 0
        if start < int(offset):
            out.append(_Pending(int(stream), int(generation), start, int(offset)))
    return out


def _events(store: Store, pending: _Pending, limit: int) -> tuple[list[tuple[Any, ...]], int]:
    """Return the next events of a stream to embed and the watermark to record once they have vectors."""
    rows = store.query(
        "SELECT e.session_key, e.seq, e.turn_seq, e.type, e.timestamp, e.text, e.source_offset "
        f"FROM {store.table('events')} AS e "
        "WHERE e.stream_id = {stream:UInt64} AND e.source_offset >= {start:UInt64} "
        "AND e.source_offset < {end:UInt64} AND e.type IN {types:Array(String)} AND e.encrypted = 0 "
        "AND e.text != '' ORDER BY e.source_offset, e.session_key, e.seq LIMIT {limit:UInt32}",
        {"stream": pending.stream_id, "start": pending.start, "end": pending.end, "types": list(VECTOR_TYPES),
         "limit": limit},
    )  # fmt: skip
    if len(rows) < limit:
        return list(rows), pending.end
    last = int(rows[-1][6])
    head = [r for r in rows if int(r[6]) < last]
    if head:
        return head, last  # events of the last offset come whole in the next call
    same = store.query(  # one source line holding more than ``limit`` events: take them all
        "SELECT session_key, seq, turn_seq, type, timestamp, text, source_offset "
        f"FROM {store.table('events')} WHERE stream_id = {{stream:UInt64}} AND source_offset = {{at:UInt64}} "
        "AND type IN {types:Array(String)} AND encrypted = 0 AND text != ''",
        {"stream": pending.stream_id, "at": last, "types": list(VECTOR_TYPES)},
    )
    return list(same), last + 1


def _session_filters(store: Store, keys: set[int]) -> dict[int, tuple[str, str]]:
    rows = store.query(
        f"SELECT session_key, any(harness), any(source) FROM {store.table('sessions')} "
        "WHERE session_key IN {keys:Array(UInt64)} GROUP BY session_key",
        {"keys": sorted(keys)},
    )
    return {int(k): (str(h), str(s)) for k, h, s in rows}


def _mark(store: Store, pending: _Pending, offset: int, model: str) -> None:
    store.insert(
        "vector_marks",
        [[pending.stream_id, pending.generation, offset, model, next_version()]],
        ["stream_id", "generation", "offset", "model", "version"],
    )


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
                filters = _session_filters(store, {int(r[0]) for r in rows})
                vectors = embedder.passages([str(r[5]) for r in rows])
                out = []
                for row, vector in zip(rows, vectors, strict=True):
                    harness, source = filters.get(int(row[0]), ("", ""))
                    key, seq, turn_seq, type_, ts, _text, offset = row
                    out.append([key, seq, turn_seq, type_, harness, source, ts, embedder.name, vector,
                                pending.stream_id, offset])  # fmt: skip
                store.insert("vectors", out, _VECTOR_COLUMNS)
                done += len(rows)
            _mark(store, pending, mark, embedder.name)
            pending = _Pending(pending.stream_id, pending.generation, mark, pending.end)
    return done


def vector_progress(store: Store) -> VectorProgress:
    """Return how many eligible events have vectors (for ``moraine status``)."""
    vectors = int(store.query(f"SELECT uniqExact(session_key, seq) FROM {store.table('vectors')}")[0][0])
    eligible = int(
        store.query(
            f"SELECT count() FROM {store.table('events')} "
            "WHERE type IN {types:Array(String)} AND encrypted = 0 AND text != ''",
            {"types": list(VECTOR_TYPES)},
        )[0][0]
    )
    return VectorProgress(vectors, eligible)


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
