"""Read ZCode's SQLite store (``~/.zcode/cli/db/db.sqlite``) as one snapshot per session changed since the position.

ZCode keeps OpenCode-like tables: ``session`` (``id``, ``directory``, ``title``, ``time_created``,
``time_updated``), ``message`` (``id``, ``session_id``, ``time_created``, ``data``: ``{role, model...}``) and ``part``
(``id``, ``message_id``, ``session_id``, optional ``time_created``, ``data``: one content block). A session changed
within ``settle_seconds`` may still be streaming its last assistant message, which waits until the session is idle.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

from moraine.harnesses._shared.snapshot_poller import SnapshotPoller, Unreadable, change_us
from moraine.harnesses._shared.sqlite import table_columns

__all__ = ["SESSION_RECORD", "ZCodeReader"]

SESSION_RECORD = "zcode_session"
_MESSAGES = "SELECT id, data, CAST(time_created AS TEXT) FROM message WHERE session_id = ? ORDER BY CAST(time_created AS TEXT), id"


class ZCodeReader(SnapshotPoller):
    """Poll a ZCode store read-only; yield a snapshot of every session changed since the position."""

    store = "ZCode"
    default_settle_seconds = 120.0
    required = {
        "session": frozenset({"id", "directory", "title", "time_created", "time_updated"}),
        "message": frozenset({"id", "session_id", "time_created", "data"}),
        "part": frozenset({"id", "message_id", "session_id", "data"}),
    }

    def changes(self, connection: sqlite3.Connection) -> Iterable[tuple[Any, Any]]:
        """Return every session with its change time."""
        return connection.execute("SELECT id, COALESCE(time_updated, time_created) FROM session").fetchall()

    def snapshot(self, connection: sqlite3.Connection, conversation: Any) -> dict[str, Any] | None:
        """Return one session with its messages, each with its parts' blocks in order."""
        row = connection.execute(
            "SELECT id, directory, title, time_created, COALESCE(time_updated, time_created) FROM session WHERE id = ?",
            (conversation,),
        ).fetchone()
        if row is None:
            return None
        order = (
            "CAST(time_created AS TEXT), id" if "time_created" in table_columns(connection, "part") else "id"
        )
        parts_query = f"SELECT data FROM part WHERE message_id = ? ORDER BY {order}"
        messages = []
        for message_id, data, created in connection.execute(_MESSAGES, (conversation,)).fetchall():
            blocks = [
                _json(part, f"part of message {message_id}")
                for (part,) in connection.execute(parts_query, (message_id,))
            ]
            messages.append(
                {
                    "id": message_id,
                    "time_created": created,
                    "data": _json(data, f"message {message_id}"),
                    "parts": blocks,
                }
            )
        updated = change_us(row[4]) or 0
        last_role = (
            messages[-1]["data"].get("role") if messages and isinstance(messages[-1]["data"], dict) else None
        )
        idle = self.clock() * 1_000_000 - updated >= self.settle_seconds * 1_000_000
        return {
            "record": SESSION_RECORD,
            "session": {"id": row[0], "directory": row[1], "title": row[2], "time_created": row[3]},
            "messages": messages,
            "unsettled": last_role == "assistant" and not idle,
        }


def _json(text: Any, what: str) -> Any:
    try:
        return json.loads(text) if text is not None else {}
    except (TypeError, ValueError) as exc:
        raise Unreadable(f"{what} is not JSON ({exc})") from exc
