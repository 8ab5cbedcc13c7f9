"""What an adapter remembers between records, in the stream's checkpointed state (a JSON object).

``changed`` remembers one value and says whether it is new: a session id, a model, a working directory or a
sidecar's signature, the things a ``SessionInfo`` is emitted for once per change. ``remember`` keeps a bounded
table, newest last. ``session_entry`` is the entry of one session in a stream that carries many (a store's
snapshots): what was announced of it and how far its items were emitted.
"""

from __future__ import annotations

from typing import Any

__all__ = ["changed", "remember", "session_entry"]


def remember(memory: dict[str, Any], key: str, value: Any, limit: int | None = None) -> None:
    """Remember ``value`` under ``key`` as the newest entry, forgetting the oldest entries past ``limit``."""
    memory.pop(key, None)
    memory[key] = value
    if limit is not None:
        while len(memory) > limit:
            del memory[next(iter(memory))]


def changed(memory: dict[str, Any], key: str, value: Any, limit: int | None = None) -> bool:
    """Remember ``value`` under ``key``; return whether it differs from what was remembered there before."""
    if memory.get(key) == value:
        return False
    remember(memory, key, value, limit)
    return True


def session_entry(state: dict[str, Any], key: str, session: str) -> dict[str, Any]:
    """Return the entry of ``session`` in the table ``key`` of the stream state, new and empty the first time."""
    table: dict[str, Any] = state.setdefault(key, {})
    entry = table.get(session)
    if not isinstance(entry, dict):
        entry = table[session] = {}
    return entry
