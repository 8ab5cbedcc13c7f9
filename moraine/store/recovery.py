"""Row removal for ingest recovery: the unpublished tail of an interrupted batch, or all rows of a rewritten file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from moraine.store.client import Store

__all__ = ["delete_sessions_after", "delete_stream", "delete_stream_tail"]

_BY_STREAM_OFFSET = ("events", "touches", "postings", "doc_stats")


def delete_stream_tail(store: Store, stream_id: int, offset: int, source: str, path: str) -> None:
    """Delete a stream's rows whose source offset is at or after ``offset`` (an interrupted publish)."""
    params = {"stream": stream_id, "offset": offset}
    for table in _BY_STREAM_OFFSET:
        store.command(
            f"DELETE FROM {store.table(table)} WHERE stream_id = {{stream:UInt64}} AND source_offset >= {{offset:UInt64}}",
            params,
        )
    store.command(
        f"DELETE FROM {store.table('ingest_errors')} "
        "WHERE source = {source:String} AND path = {path:String} AND offset >= {offset:UInt64}",
        {"source": source, "path": path, "offset": offset},
    )


def delete_stream(store: Store, stream_id: int, session_keys: Sequence[int], source: str, path: str) -> None:
    """Delete every row a stream produced: its events and derived rows, and its sessions' turns and sessions."""
    delete_stream_tail(store, stream_id, 0, source, path)
    _delete_sessions(store, session_keys)


def _delete_sessions(store: Store, session_keys: Sequence[int]) -> None:
    if session_keys:
        keys = {"keys": list(session_keys)}
        for table in ("turns", "sessions"):
            store.command(
                f"DELETE FROM {store.table(table)} WHERE session_key IN {{keys:Array(UInt64)}}", keys
            )


def delete_sessions_after(store: Store, stream_id: int, kept: Mapping[int, int]) -> None:
    """Delete the turns and sessions an interrupted publish added to a stream.

    ``kept`` maps each session the stream had at its committed checkpoint to its turn then: later turns of those
    sessions go, and so do the stream's other sessions with all their turns.
    """
    rows = store.query(
        f"SELECT DISTINCT session_key FROM {store.table('sessions')} WHERE stream_id = {{stream:UInt64}}",
        {"stream": stream_id},
    )
    _delete_sessions(store, sorted({int(row[0]) for row in rows} - set(kept)))
    for key, turn_seq in sorted(kept.items()):
        store.command(
            f"DELETE FROM {store.table('turns')} WHERE session_key = {{key:UInt64}} AND turn_seq > {{turn:UInt32}}",
            {"key": key, "turn": turn_seq},
        )
