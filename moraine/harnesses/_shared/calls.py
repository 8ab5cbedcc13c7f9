"""Remember which tool a call id belongs to, so a tool response (which carries only the id) gets its tool's name.

The memory lives in the stream's checkpointed state as a small JSON object, bounded to the most recent calls.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.memory import remember

__all__ = ["recall_call", "remember_call"]

_KEY = "calls"
_LIMIT = 256


def remember_call(state: dict[str, Any], call_id: str | None, name: str | None) -> None:
    """Record that ``call_id`` is a call to ``name`` (forgetting the oldest call past the bound)."""
    if not call_id or not name:
        return
    calls = state.get(_KEY)
    if not isinstance(calls, dict):
        calls = {}
        state[_KEY] = calls
    remember(calls, call_id, name, _LIMIT)


def recall_call(state: dict[str, Any], call_id: str | None) -> str | None:
    """Return the tool name recorded for ``call_id``, if still remembered."""
    calls = state.get(_KEY)
    if not call_id or not isinstance(calls, dict):
        return None
    name = calls.get(call_id)
    return name if isinstance(name, str) else None
