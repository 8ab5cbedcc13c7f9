"""Read Shelley's SQLite store (``~/.config/shelley/shelley.db``) as one snapshot per conversation changed.

Shelley keeps ``conversations`` (``conversation_id``, ``slug``, ``created_at``, ``updated_at``, ``cwd``,
``parent_conversation_id``, ``model``) and ``messages`` (``conversation_id``, ``sequence_id``, ``type``: user, agent or
tool, ``llm_data``: the LLM message as JSON, ``usage_data``: its token counts and model, ``created_at``). Messages are
written whole, so a snapshot is always settled.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from moraine.harnesses._shared.snapshot_poller import SnapshotPoller

__all__ = ["CONVERSATION_RECORD", "ShelleyReader"]

CONVERSATION_RECORD = "shelley_conversation"
_CONVERSATION_KEYS = (
    "conversation_id",
    "slug",
    "created_at",
    "updated_at",
    "cwd",
    "parent_conversation_id",
    "model",
)
_MESSAGE_KEYS = ("sequence_id", "type", "llm_data", "usage_data", "created_at")


class ShelleyReader(SnapshotPoller):
    """Poll a Shelley store read-only; yield every conversation changed since the position with its messages."""

    store = "Shelley"
    required = {
        "conversations": frozenset(_CONVERSATION_KEYS),
        "messages": frozenset(_MESSAGE_KEYS) | {"conversation_id"},
    }

    def changes(self, connection: sqlite3.Connection) -> Iterable[tuple[Any, Any]]:
        """Return every conversation with its last change."""
        return connection.execute(
            "SELECT conversation_id, COALESCE(updated_at, created_at) FROM conversations"
        )

    def snapshot(self, connection: sqlite3.Connection, conversation: Any) -> dict[str, Any] | None:
        """Return one conversation with its messages in sequence."""
        columns = ", ".join(_CONVERSATION_KEYS)
        row = connection.execute(
            f"SELECT {columns} FROM conversations WHERE conversation_id = ?", (conversation,)
        ).fetchone()
        if row is None:
            return None
        query = (
            f"SELECT {', '.join(_MESSAGE_KEYS)} FROM messages WHERE conversation_id = ? ORDER BY sequence_id"
        )
        messages = [
            dict(zip(_MESSAGE_KEYS, m, strict=True)) for m in connection.execute(query, (conversation,))
        ]
        return {
            "record": CONVERSATION_RECORD,
            "conversation": dict(zip(_CONVERSATION_KEYS, row, strict=True)),
            "messages": messages,
        }
