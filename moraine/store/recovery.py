"""Row removal for ingest recovery: the unpublished tail of an interrupted batch, or all rows of a rewritten file."""

from __future__ import annotations

from collections.abc import Sequence

from moraine.store.client import Store

__all__ = ["delete_stream", "delete_stream_tail"]

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
    if session_keys:
        keys = {"keys": list(session_keys)}
        for table in ("turns", "sessions"):
            store.command(
                f"DELETE FROM {store.table(table)} WHERE session_key IN {{keys:Array(UInt64)}}", keys
            )
