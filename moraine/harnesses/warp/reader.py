"""Read Warp's SQLite store (``warp.sqlite``) as one snapshot per agent conversation changed since the position.

Warp keeps ``agent_conversations`` (``conversation_id``, ``conversation_data``: JSON with usage metadata,
``last_modified_at``) and ``ai_queries``, one row per exchange: ``exchange_id``, ``start_ts``, ``input`` (JSON
``[{"Query": {"text", "context"}}]``), ``working_directory``, ``output_status``, ``model_id``. The agent's replies and
tool calls are not stored locally: a snapshot holds the queries, in order.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from moraine.harnesses._shared.snapshot_poller import SnapshotPoller

__all__ = ["CONVERSATION_RECORD", "WarpReader"]

CONVERSATION_RECORD = "warp_conversation"
_QUERY_KEYS = ("exchange_id", "start_ts", "input", "working_directory", "output_status", "model_id")
_QUERIES = f"SELECT {', '.join(_QUERY_KEYS)} FROM ai_queries WHERE conversation_id = ? ORDER BY start_ts, id"


class WarpReader(SnapshotPoller):
    """Poll a Warp store read-only; yield every agent conversation changed since the position with its queries."""

    store = "Warp"
    required = {
        "agent_conversations": frozenset({"conversation_id", "last_modified_at"}),
        "ai_queries": frozenset(_QUERY_KEYS) | {"id", "conversation_id"},
    }

    def changes(self, connection: sqlite3.Connection) -> Iterable[tuple[Any, Any]]:
        """Return every agent conversation with its last change."""
        return connection.execute(
            "SELECT conversation_id, last_modified_at FROM agent_conversations"
        ).fetchall()

    def snapshot(self, connection: sqlite3.Connection, conversation: Any) -> dict[str, Any] | None:
        """Return one conversation's queries in order."""
        queries = [
            dict(zip(_QUERY_KEYS, row, strict=True)) for row in connection.execute(_QUERIES, (conversation,))
        ]
        first = queries[0] if queries else {}
        return {
            "record": CONVERSATION_RECORD,
            "conversation": {
                "id": conversation,
                "cwd": first.get("working_directory"),
                "started": first.get("start_ts"),
            },
            "messages": queries,
        }
