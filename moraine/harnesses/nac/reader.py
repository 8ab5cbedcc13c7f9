"""Read NAC's SQLite store (``store.db``, set up by ``moraine setup``) as per-session snapshots.

NAC keeps one ``sessions`` row per conversation (its whole message list in ``messages_json``, rewritten as the
conversation grows) and appends ``episodes`` rows (a worker thread's action and its result). This reader polls the
store read-only and yields one snapshot per session changed at or after the saved position: the session row, its
messages and its episodes. Positions are change times in Unix microseconds (the later of the session's
``updated_at`` and its newest episode); the adapter (``nac/adapter.py``) remembers how much of each session it
emitted, so a re-read snapshot yields only what is new. Sessions synced from another host (``host_id`` set) are
not this machine's history and are skipped.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from moraine.harness_api.model import IngestError, RawRecord
from moraine.harness_api.reader import ReadItem
from moraine.harnesses._shared.sqlite import SqlitePoller, table_columns

__all__ = ["SNAPSHOT_RECORD", "NacReader", "change_time_us"]

SNAPSHOT_RECORD = "nac_session"
_SESSION_COLUMNS = {"session_id", "cwd", "model", "messages_json", "created_at", "updated_at"}
_EPISODE_COLUMNS = {"id", "thread_name", "session_id", "action", "content", "created_at"}
_CHANGES = """
SELECT s.session_id, s.updated_at, (SELECT max(e.created_at) FROM episodes AS e WHERE e.session_id = s.session_id)
FROM sessions AS s
WHERE {local}
"""
_SESSION = (
    "SELECT session_id, cwd, model, messages_json, created_at, updated_at FROM sessions WHERE session_id = ?"
)
_EPISODES = (
    "SELECT id, thread_name, action, content, created_at FROM episodes WHERE session_id = ? ORDER BY id"
)


def change_time_us(value: Any) -> int | None:
    """Return a NAC timestamp (``YYYY-MM-DD HH:MM:SS[.fraction]``, UTC) as Unix microseconds."""
    if not isinstance(value, str) or not value:
        return None
    text = value.strip().replace("T", " ").removesuffix("Z")
    head, _, fraction = text.partition(".")
    try:
        moment = datetime.strptime(head, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        return None
    micros = int((fraction + "000000")[:6]) if fraction.isdigit() else 0
    return int(moment.timestamp()) * 1_000_000 + micros


class NacReader(SqlitePoller):
    """Poll a NAC store read-only; yield a snapshot of every session changed since the position."""

    def poll(
        self, connection: sqlite3.Connection, path: Path, offset: int, line_no: int
    ) -> Iterator[ReadItem]:
        """Yield session snapshots whose change time is at or after ``offset``."""
        session_columns = table_columns(connection, "sessions")
        missing = (_SESSION_COLUMNS - session_columns) | (
            _EPISODE_COLUMNS - table_columns(connection, "episodes")
        )
        if missing:
            yield from self.once(
                f"schema:{path}",
                IngestError("schema_drift", f"NAC store lacks columns {', '.join(sorted(missing))}"),
                offset,
                line_no,
            )
            return
        local = "s.host_id IS NULL" if "host_id" in session_columns else "1"
        changed: list[tuple[int, str]] = []
        for session_id, updated, newest_episode in connection.execute(_CHANGES.format(local=local)):
            times = [t for t in (change_time_us(updated), change_time_us(newest_episode)) if t is not None]
            if not times:
                yield from self.once(
                    f"time:{session_id}:{updated}",
                    IngestError("malformed_row", f"session {session_id}: unreadable updated_at {updated!r}"),
                    offset,
                    line_no,
                )
                continue
            if max(times) >= offset:
                changed.append((max(times), str(session_id)))
        for change, session_id in sorted(changed):
            item = self._snapshot(connection, session_id, change, offset, line_no + 1)
            if item is not None:
                line_no += 1
                yield item

    def _snapshot(
        self, connection: Any, session_id: str, change: int, offset: int, line_no: int
    ) -> ReadItem | None:
        row = connection.execute(_SESSION, (session_id,)).fetchone()
        if row is None:  # deleted between the two queries: nothing to read
            return None
        _, cwd, model, messages_json, created, updated = row
        try:
            messages = json.loads(messages_json)
        except (TypeError, ValueError) as exc:
            error = IngestError("malformed_row", f"session {session_id}: messages_json is not JSON ({exc})")
            return ReadItem(None, error, offset, line_no, change, line_no)
        episodes = [
            {"id": e[0], "thread_name": e[1], "action": e[2], "content": e[3], "created_at": e[4]}
            for e in connection.execute(_EPISODES, (session_id,))
        ]
        data = {
            "record": SNAPSHOT_RECORD,
            "session": {
                "session_id": session_id,
                "cwd": cwd,
                "model": model,
                "created_at": created,
                "updated_at": updated,
            },
            "messages": messages,
            "episodes": episodes,
        }
        return ReadItem(RawRecord(data, line_no, change), None, offset, line_no, change, line_no)
