"""The background vectorizer's statements: which published events still need vectors, and recording them.

Per stream, ``vector_marks`` records how far (source offset, in which generation) vectors exist; the vectorizer
(``moraine.semantic.vectorizer``) decides what to embed, this module only reads and writes the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from moraine.store.client import Store
from moraine.store.versions import next_version

__all__ = [
    "VECTOR_COLUMNS",
    "VECTOR_TYPES",
    "EmbedRow",
    "StreamMark",
    "VectorProgress",
    "delete_stream_vectors",
    "events_at_offset",
    "events_to_embed",
    "insert_vectors",
    "mark_stream",
    "session_filters",
    "stream_marks",
    "vector_progress",
]

# The event types that get vectors: user input and assistant responses.
VECTOR_TYPES = ("user_input", "assistant_response")
VECTOR_COLUMNS = (
    "session_key", "seq", "turn_seq", "type", "harness", "source", "timestamp", "model", "vector", "stream_id",
    "source_offset",
)  # fmt: skip
# One event to embed: (session_key, seq, turn_seq, type, timestamp, text, source_offset).
EmbedRow = tuple[Any, ...]
_EMBED_COLUMNS = "session_key, seq, turn_seq, type, timestamp, text, source_offset"
_EMBEDDABLE = "type IN {types:Array(String)} AND encrypted = 0 AND text != ''"


@dataclass(frozen=True, slots=True)
class VectorProgress:
    vectors: int
    eligible: int  # user_input / assistant_response events with text

    @property
    def pending(self) -> int:
        return max(0, self.eligible - self.vectors)


@dataclass(frozen=True, slots=True)
class StreamMark:
    """A checkpointed stream and how far it has vectors (``marked`` False: none yet)."""

    stream_id: int
    generation: int
    offset: int  # the checkpoint offset: rows below it are published
    marked: bool
    mark_generation: int
    mark_offset: int


def stream_marks(store: Store) -> list[StreamMark]:
    """Every checkpointed stream with its vector mark, newest first (by its sessions' last activity)."""
    rows = store.query(
        f"SELECT c.stream_id, c.generation, c.offset, m.generation, m.offset, m.stream_id != 0 "
        f"FROM (SELECT stream_id, generation, offset FROM {store.table('checkpoints')} FINAL) AS c "
        f"LEFT JOIN (SELECT stream_id, generation, offset FROM {store.table('vector_marks')} FINAL) AS m "
        "ON c.stream_id = m.stream_id "
        f"LEFT JOIN (SELECT stream_id, max(updated_at) AS newest FROM {store.table('sessions')} FINAL "
        "GROUP BY stream_id) AS s ON c.stream_id = s.stream_id "
        "ORDER BY s.newest DESC NULLS LAST, c.stream_id"
    )
    return [
        StreamMark(int(stream), int(generation), int(offset), bool(marked), int(m_gen or 0), int(m_off or 0))
        for stream, generation, offset, m_gen, m_off, marked in rows
    ]


def delete_stream_vectors(store: Store, stream_id: int) -> None:
    """Delete every vector of a stream (its trace was rewritten)."""
    store.command(
        f"DELETE FROM {store.table('vectors')} WHERE stream_id = {{stream:UInt64}}", {"stream": stream_id}
    )


def events_to_embed(store: Store, stream_id: int, start: int, end: int, limit: int) -> list[EmbedRow]:
    """Up to ``limit`` embeddable events of a stream with ``start <= source_offset < end``, in file order."""
    return list(
        store.query(
            "SELECT e.session_key, e.seq, e.turn_seq, e.type, e.timestamp, e.text, e.source_offset "
            f"FROM {store.table('events')} AS e "
            "WHERE e.stream_id = {stream:UInt64} AND e.source_offset >= {start:UInt64} "
            "AND e.source_offset < {end:UInt64} AND e.type IN {types:Array(String)} AND e.encrypted = 0 "
            "AND e.text != '' ORDER BY e.source_offset, e.session_key, e.seq LIMIT {limit:UInt32}",
            {"stream": stream_id, "start": start, "end": end, "types": list(VECTOR_TYPES), "limit": limit},
        )
    )


def events_at_offset(store: Store, stream_id: int, offset: int) -> list[EmbedRow]:
    """Every embeddable event of one source line of a stream."""
    return list(
        store.query(
            f"SELECT {_EMBED_COLUMNS} FROM {store.table('events')} "
            f"WHERE stream_id = {{stream:UInt64}} AND source_offset = {{at:UInt64}} AND {_EMBEDDABLE}",
            {"stream": stream_id, "at": offset, "types": list(VECTOR_TYPES)},
        )
    )


def session_filters(store: Store, keys: set[int]) -> dict[int, tuple[str, str]]:
    """Return (harness, source) of each session key (the search filters stored beside its vectors)."""
    rows = store.query(
        f"SELECT session_key, any(harness), any(source) FROM {store.table('sessions')} "
        "WHERE session_key IN {keys:Array(UInt64)} GROUP BY session_key",
        {"keys": sorted(keys)},
    )
    return {int(k): (str(h), str(s)) for k, h, s in rows}


def insert_vectors(store: Store, rows: Sequence[Sequence[Any]]) -> None:
    """Store vectors (rows in ``VECTOR_COLUMNS`` order)."""
    store.insert("vectors", rows, VECTOR_COLUMNS)


def mark_stream(store: Store, stream_id: int, generation: int, offset: int, model: str) -> None:
    """Record that a stream has vectors below ``offset`` in ``generation``."""
    store.insert(
        "vector_marks",
        [[stream_id, generation, offset, model, next_version()]],
        ["stream_id", "generation", "offset", "model", "version"],
    )


def vector_progress(store: Store) -> VectorProgress:
    """Return how many eligible events have vectors (for ``moraine status``)."""
    vectors = int(store.query(f"SELECT uniqExact(session_key, seq) FROM {store.table('vectors')}")[0][0])
    eligible = int(
        store.query(
            f"SELECT count() FROM {store.table('events')} WHERE {_EMBEDDABLE}", {"types": list(VECTOR_TYPES)}
        )[0][0]
    )
    return VectorProgress(vectors, eligible)
