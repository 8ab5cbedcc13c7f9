"""Existence checks for search scopes (a well-formed but unknown scope is ``not_found``)."""

from __future__ import annotations

from moraine.store.client import Store

__all__ = ["session_exists", "turn_exists"]


def session_exists(store: Store, key: int) -> bool:
    """Return whether a session with this key is stored."""
    rows = store.query(
        f"SELECT 1 FROM {store.table('sessions')} WHERE session_key = {{key:UInt64}} LIMIT 1", {"key": key}
    )
    return bool(rows)


def turn_exists(store: Store, key: int, turn_seq: int) -> bool:
    """Return whether this turn of this session is stored."""
    rows = store.query(
        f"SELECT 1 FROM {store.table('turns')} "
        "WHERE session_key = {key:UInt64} AND turn_seq = {turn:UInt32} LIMIT 1",
        {"key": key, "turn": turn_seq},
    )
    return bool(rows)
