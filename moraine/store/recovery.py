"""Row removal for ingest recovery: the unpublished tail of an interrupted batch, or all rows of a rewritten file.

The tail of an interrupted batch was never visible to readers: a lightweight ``DELETE`` (which masks the rows) is
enough and cheap. A rewritten file is often rewritten to remove something (an agent's own pruning, a secret the user
scrubbed), so its old rows are removed by mutations (``ALTER TABLE ... DELETE``, waited for) that rewrite the parts
holding them: a lightweight delete left the scrubbed bytes in the events part on disk for as long as no merge
touched it. The replaced parts go ``old_parts_lifetime`` (10 s) later, when ClickHouse's cleanup next runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from moraine.store.client import Store

__all__ = ["delete_sessions_after", "delete_stream", "delete_stream_tail"]

_BY_STREAM_OFFSET = ("events", "touches", "doc_stats")


_MUTATION = {"mutations_sync": 2}


def _delete(store: Store, table: str, where: str, params: dict[str, object], rewrite: bool) -> None:
    """Delete ``table``'s rows matching ``where``: masked (lightweight) or rewritten out of their parts."""
    if rewrite:
        store.command(f"ALTER TABLE {store.table(table)} DELETE WHERE {where}", params, settings=_MUTATION)
    else:
        store.command(f"DELETE FROM {store.table(table)} WHERE {where}", params)


def delete_stream_tail(
    store: Store, stream_id: int, offset: int, source: str, path: str, rewrite: bool = False
) -> None:
    """Delete a stream's rows whose source offset is at or after ``offset`` (an interrupted publish)."""
    params: dict[str, object] = {"stream": stream_id, "offset": offset}
    tail = "stream_id = {stream:UInt64} AND source_offset >= {offset:UInt64}"
    # Postings carry no stream or offset (migration 016): they go first, found through their events.
    postings = f"(session_key, seq) IN (SELECT session_key, seq FROM {store.table('events')} WHERE {tail})"
    _delete(store, "postings", postings, params, rewrite)
    for table in _BY_STREAM_OFFSET:
        _delete(store, table, tail, params, rewrite)
    _delete(
        store,
        "ingest_errors",
        "source = {source:String} AND path = {path:String} AND offset >= {offset:UInt64}",
        {"source": source, "path": path, "offset": offset},
        rewrite,
    )


def delete_stream(store: Store, stream_id: int, session_keys: Sequence[int], source: str, path: str) -> None:
    """Delete every row a stream produced, rewriting the parts that held them: its events and derived rows, its
    sessions' turns and sessions, and its checkpoints (a rewritten file)."""
    delete_stream_tail(store, stream_id, 0, source, path, rewrite=True)
    _delete_sessions(store, session_keys, rewrite=True)
    # Its checkpoints saved the sessions' state (titles, prompts): the stream starts over, its next one replaces them.
    _delete(store, "checkpoints", "stream_id = {stream:UInt64}", {"stream": stream_id}, rewrite=True)


def _delete_sessions(store: Store, session_keys: Sequence[int], rewrite: bool = False) -> None:
    if session_keys:
        keys: dict[str, object] = {"keys": list(session_keys)}
        for table in ("turns", "sessions"):
            _delete(store, table, "session_key IN {keys:Array(UInt64)}", keys, rewrite)


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
