"""Read Piebald's SQLite store (``app.db``) as one snapshot per chat changed since the position.

Piebald normalizes a chat over many tables: ``chats`` (title, times, ``current_directory``, ``worktree_path``,
``message_count``, ``is_deleted``, ``project_id`` -> ``projects.directory``), ``messages`` (``parent_chat_id``,
``parent_message_id``, ``enabled``: the branch shown, ``role``, ``model``, times, token counts, ``status``,
``finish_reason``, ``error``), ``message_parts`` (``part_type`` text or tool_call, ``part_index``), text held as
content nodes (``message_part_text.is_thinking``, ``message_content_nodes`` -> ``message_node_text.content``) and
tool calls in ``message_part_tool_call`` (``provider_tool_use_id``, ``tool_name``, ``tool_input``, ``tool_result``,
``tool_error``, ``tool_state``, ``sub_agent_chat_id``). A chat whose newest message is still streaming (no
``finish_reason`` and no error, changed within ``settle_seconds``) is unsettled: its last message waits.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from moraine.harnesses._shared.snapshot_poller import SnapshotPoller, change_us

__all__ = ["CHAT_RECORD", "PiebaldReader"]

CHAT_RECORD = "piebald_chat"
_CHAT = """
SELECT c.id, c.title, c.created_at, COALESCE(c.updated_at, c.created_at), c.current_directory, c.worktree_path,
       p.directory
FROM chats AS c LEFT JOIN projects AS p ON p.id = c.project_id
WHERE c.id = ? AND COALESCE(c.is_deleted, 0) = 0
"""
_MESSAGES = """
SELECT id, parent_message_id, enabled, role, model, created_at, COALESCE(updated_at, created_at), input_tokens,
       output_tokens, reasoning_tokens, cache_read_tokens, cache_write_tokens, status, finish_reason, error
FROM messages WHERE parent_chat_id = ? ORDER BY created_at, id
"""
_MESSAGE_KEYS = (
    "id parent_message_id enabled role model created_at updated_at input_tokens output_tokens reasoning_tokens "
    "cache_read_tokens cache_write_tokens status finish_reason error"
).split()
_PARTS = "SELECT id, part_type FROM message_parts WHERE parent_chat_message_id = ? ORDER BY part_index, id"
_TEXT = """
SELECT COALESCE(t.is_thinking, 0),
       (SELECT group_concat(content, '') FROM (
            SELECT n.content FROM message_content_nodes AS m JOIN message_node_text AS n ON n.node_id = m.id
            WHERE m.parent_text_part_id = t.message_part_id AND m.node_type = 'text'
            ORDER BY m.node_index, m.id))
FROM message_part_text AS t WHERE t.message_part_id = ?
"""
_TOOL = """
SELECT provider_tool_use_id, tool_name, tool_input, tool_result, tool_error, tool_state, sub_agent_chat_id
FROM message_part_tool_call WHERE message_part_id = ?
"""
_TOOL_KEYS = ("id", "name", "input", "result", "error", "state", "sub_agent_chat_id")


class PiebaldReader(SnapshotPoller):
    """Poll a Piebald store read-only; yield a snapshot of every chat changed since the position."""

    store = "Piebald"
    default_settle_seconds = 120.0
    required = {
        "chats": frozenset({"id", "title", "created_at", "updated_at", "current_directory", "is_deleted"}),
        "messages": frozenset({"id", "parent_chat_id", "parent_message_id", "enabled", "role", "created_at"}),
        "message_parts": frozenset({"id", "parent_chat_message_id", "part_type", "part_index"}),
        "message_part_tool_call": frozenset({"message_part_id", "provider_tool_use_id", "tool_name"}),
    }

    def changes(self, connection: sqlite3.Connection) -> Iterable[tuple[Any, Any]]:
        """Return every chat that is not deleted with its change time."""
        query = "SELECT id, COALESCE(updated_at, created_at) FROM chats WHERE COALESCE(is_deleted, 0) = 0"
        return connection.execute(query).fetchall()

    def snapshot(self, connection: sqlite3.Connection, conversation: Any) -> dict[str, Any] | None:
        """Return one chat with its messages and their parts, in order."""
        chat = connection.execute(_CHAT, (conversation,)).fetchone()
        if chat is None:
            return None
        messages = [
            dict(zip(_MESSAGE_KEYS, row, strict=True))
            for row in connection.execute(_MESSAGES, (conversation,))
        ]
        for message in messages:
            message["parts"] = [
                self._part(connection, part_id, kind)
                for part_id, kind in connection.execute(_PARTS, (message["id"],))
            ]
        last = messages[-1] if messages else {}
        streaming = (
            bool(last)
            and not last.get("finish_reason")
            and not last.get("error")
            and last.get("role") == "assistant"
        )
        changed = change_us(last.get("updated_at")) or 0
        return {
            "record": CHAT_RECORD,
            "chat": {
                "id": chat[0],
                "title": chat[1],
                "created_at": chat[2],
                "updated_at": chat[3],
                "cwd": chat[4] or chat[5] or chat[6],
            },
            "messages": messages,
            "unsettled": streaming and self.clock() * 1_000_000 - changed < self.settle_seconds * 1_000_000,
        }

    def _part(self, connection: sqlite3.Connection, part_id: Any, kind: Any) -> dict[str, Any]:
        if kind == "text":
            row = connection.execute(_TEXT, (part_id,)).fetchone() or (0, "")
            return {"type": "text", "thinking": bool(row[0]), "text": row[1] or ""}
        if kind == "tool_call":
            row = connection.execute(_TOOL, (part_id,)).fetchone()
            return {"type": "tool_call", **dict(zip(_TOOL_KEYS, row or (), strict=False))}
        return {"type": kind}
