"""Read Trae's agent sessions: the ``memento/icube-ai-agent-storage`` key of its ``state.vscdb`` databases."""

from __future__ import annotations

from moraine.harnesses._shared.vscode_state import ItemTableReader

__all__ = ["SESSIONS_RECORD", "TraeSessionsReader"]

SESSIONS_RECORD = "trae_sessions"


class TraeSessionsReader(ItemTableReader):
    """Yield a snapshot of Trae's session list whenever it changes."""

    keys = ("memento/icube-ai-agent-storage",)
    record = SESSIONS_RECORD
