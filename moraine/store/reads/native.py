"""Find a session by its harness's own ID (``harness_session_id``: what ``claude --resume`` or ``codex resume``
takes), and read the first events of a session for a search that named one."""

from __future__ import annotations

from moraine.ids import could_be_native_id
from moraine.store.reads.floor import ProjectFloor, in_floor
from moraine.store.client import Store

__all__ = ["first_events", "native_session_key"]


def native_session_key(
    store: Store,
    native_id: str,
    floor: ProjectFloor | None = None,
    harness: str | None = None,
    source: str | None = None,
) -> int | None:
    """Return the key of the session whose harness ID is exactly ``native_id`` (visible under ``floor``, of
    ``harness`` and ``source`` when given), or None.

    When sources share an ID (a session copied between machines, say), the top-level session updated last wins;
    a sub-agent's own ID is ``<parent>:<agent>``, so the parent's ID finds the parent.
    """
    text = native_id.strip()
    if not could_be_native_id(text):
        return None
    where = ["harness_session_id = {id:String}"]
    params: dict[str, object] = {"id": text}
    for column, value in (("harness", harness), ("source", source)):
        if value is not None:
            where.append(f"{column} = {{{column}:String}}")
            params[column] = value
    rows = store.query(
        f"SELECT session_key FROM {store.table('sessions')} FINAL WHERE {' AND '.join(where)} "
        "ORDER BY isNull(parent_session_key) DESC, updated_at DESC, session_key LIMIT 16",
        params,
    )
    return next((int(key) for (key,) in rows if in_floor(store, floor, int(key))), None)


def first_events(store: Store, key: int, types: tuple[str, ...], limit: int) -> list[int]:
    """Return the seqs of the session's first ``limit`` events of ``types``, in order (never Moraine's own tool
    calls, which are never search hits)."""
    rows = store.query(
        f"SELECT seq FROM {store.table('events')} WHERE session_key = {{key:UInt64}} "
        "AND type IN {types:Array(String)} AND NOT is_moraine_tool ORDER BY seq LIMIT {limit:UInt32}",
        {"key": key, "types": list(types), "limit": limit},
    )
    return [int(seq) for (seq,) in rows]
