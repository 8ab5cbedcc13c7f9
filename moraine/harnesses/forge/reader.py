"""Read Forge's SQLite store (``~/.forge/.forge.db``, table ``conversations``) as per-conversation snapshots.

Forge keeps one ``conversations`` row per conversation: ``conversation_id``, ``title``, ``context`` (the whole
conversation as JSON, rewritten as it grows), ``created_at``/``updated_at`` (``YYYY-MM-DD HH:MM:SS[.fraction]``,
UTC) and ``metrics``. This reader polls the store read-only and yields one snapshot per conversation changed at or
after the saved position (Unix microseconds of its ``updated_at``, else ``created_at``); the adapter remembers how
many messages of each conversation it emitted, so a re-read snapshot yields only the new ones. Rows without a
context (a conversation not started) are skipped.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

from moraine.harnesses._shared.snapshot_poller import SnapshotPoller, Unreadable

__all__ = ["CONVERSATION_RECORD", "ForgeReader"]

CONVERSATION_RECORD = "forge_conversation"
_CHANGES = (
    "SELECT conversation_id, COALESCE(updated_at, created_at) FROM conversations WHERE context IS NOT NULL"
)
_ROW = """
SELECT conversation_id, title, context, created_at, COALESCE(updated_at, created_at)
FROM conversations
WHERE conversation_id = ? AND context IS NOT NULL
"""


class ForgeReader(SnapshotPoller):
    """Poll a Forge store read-only; yield a snapshot of every conversation changed since the position."""

    store = "Forge"
    required = {
        "conversations": frozenset({"conversation_id", "title", "context", "created_at", "updated_at"})
    }

    def changes(self, connection: sqlite3.Connection) -> Iterable[tuple[Any, Any]]:
        """Return every started conversation with its change time."""
        return connection.execute(_CHANGES).fetchall()

    def snapshot(self, connection: sqlite3.Connection, conversation: Any) -> dict[str, Any] | None:
        """Return one conversation's row with its parsed context."""
        row = connection.execute(_ROW, (conversation,)).fetchone()
        if row is None:
            return None
        try:
            context = json.loads(row[2])
        except (TypeError, ValueError) as exc:
            raise Unreadable(f"context is not JSON ({exc})") from exc
        return {
            "record": CONVERSATION_RECORD,
            "conversation": {"id": row[0], "title": row[1], "created_at": row[3], "updated_at": row[4]},
            "context": context,
        }
