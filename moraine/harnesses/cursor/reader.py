"""Read Cursor's IDE chat store (``state.vscdb``, table ``cursorDiskKV``) as composer snapshots.

Cursor keeps one ``composerData:<composerId>`` row per chat (its name, status, timestamps and the ordered list of
bubble headers) and one ``bubbleId:<composerId>:<bubbleId>`` row per message, rewriting rows as they change. This
reader polls the store read-only and yields, for every composer updated at or after the saved position, one
snapshot record: the composer and its bubbles in conversation order. Positions are the composers' ``lastUpdatedAt``
(Unix ms), so a pass re-reads only changed chats; the adapter (``cursor/composer.py``) remembers how many
bubbles of each chat it already emitted, so a re-read snapshot yields only the new ones. The newest bubble of a
chat that is still being written is marked unsettled and waits for a later pass.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from moraine.harnesses.cursor.composer import SNAPSHOT_RECORD
from moraine.harness_api.model import IngestError, RawRecord
from moraine.harness_api.reader import ReadItem
from moraine.harnesses._shared.sqlite import SqlitePoller, table_columns

__all__ = ["CursorSqliteReader"]

# Composers changed at or after the position, plus (value NULL) composers whose value is not JSON. The key range
# uses the table's unique index on key.
_COMPOSERS = """
SELECT key, value, updated FROM (
    SELECT key,
           CASE WHEN json_valid(CAST(value AS TEXT)) THEN CAST(value AS TEXT) END AS value,
           CASE WHEN json_valid(CAST(value AS TEXT)) THEN
               CAST(COALESCE(json_extract(CAST(value AS TEXT), '$.lastUpdatedAt'),
                             json_extract(CAST(value AS TEXT), '$.createdAt'), 0) AS INTEGER)
           END AS updated
    FROM cursorDiskKV
    WHERE key >= 'composerData:' AND key < 'composerData;'
)
WHERE updated IS NULL OR updated >= ?
ORDER BY updated, key
"""
_BUBBLES = "SELECT key, CAST(value AS TEXT) FROM cursorDiskKV WHERE key >= ? AND key < ?"
# A chat untouched for this long is finished writing even if its status never said so.
DEFAULT_SETTLE_SECONDS = 30.0
_DONE_STATUSES = frozenset({"completed", "aborted", "cancelled", "error", "none"})


class CursorSqliteReader(SqlitePoller):
    """Poll ``state.vscdb`` read-only; yield one snapshot per composer changed since the position."""

    default_settle_seconds = DEFAULT_SETTLE_SECONDS

    def poll(
        self, connection: sqlite3.Connection, path: Path, offset: int, line_no: int
    ) -> Iterator[ReadItem]:
        """Yield composer snapshots updated at or after ``offset`` (Unix ms)."""
        if not {"key", "value"} <= table_columns(connection, "cursorDiskKV"):
            yield from self.once(
                f"schema:{path}",
                IngestError("schema_drift", "state.vscdb has no cursorDiskKV(key, value) table"),
                offset,
                line_no,
            )
            return
        rows = connection.execute(_COMPOSERS, (offset,)).fetchall()
        now_ms = self.clock() * 1000.0
        held: int | None = None
        for key, value, updated in rows:
            if value is None:
                error = IngestError("malformed_row", f"{key}: value is not JSON")
                yield from self.once(f"invalid:{key}", error, offset, line_no)
                continue
            line_no += 1
            composer_id = str(key).partition(":")[2]
            composer = json.loads(value)
            if not isinstance(composer, dict):
                yield ReadItem(
                    None,
                    IngestError("malformed_row", f"{key}: not a JSON object"),
                    offset,
                    line_no,
                    int(updated) if held is None else min(held, int(updated)),
                    line_no,
                )
                continue
            active = (
                composer.get("status") not in _DONE_STATUSES
                and now_ms - int(updated) < self.settle_seconds * 1000.0
            )
            bubbles = _bubbles(connection, composer_id, composer, active)
            if active:
                held = int(updated) if held is None else min(held, int(updated))
            end = int(updated) if held is None else min(held, int(updated))
            data = {
                "record": SNAPSHOT_RECORD,
                "composer_id": composer_id,
                "composer": composer,
                "bubbles": bubbles,
            }
            yield ReadItem(RawRecord(data, line_no, int(updated)), None, int(updated), line_no, end, line_no)


def _bubbles(
    connection: sqlite3.Connection, composer_id: str, composer: dict[str, Any], active: bool
) -> list[dict[str, Any]]:
    """Return the composer's bubbles in conversation order: ``{id, type, value, settled}``."""
    prefix = f"bubbleId:{composer_id}:"
    stored = dict(connection.execute(_BUBBLES, (prefix, prefix[:-1] + ";")).fetchall())
    headers = composer.get("fullConversationHeadersOnly")
    out: list[dict[str, Any]] = []
    if not isinstance(headers, list):
        # Older Cursor versions keep the bubbles inline in the composer row.
        inline = [b for b in composer.get("conversation") or [] if isinstance(b, dict)]
        return [
            {
                "id": b.get("bubbleId"),
                "type": b.get("type"),
                "value": b,
                "error": None,
                "settled": not (active and index == len(inline) - 1),
            }
            for index, b in enumerate(inline)
        ]
    for index, header in enumerate(headers):
        if not isinstance(header, dict) or not isinstance(header.get("bubbleId"), str):
            out.append({"id": None, "type": None, "value": None, "settled": True, "error": "bad header"})
            continue
        bubble_id = header["bubbleId"]
        raw = stored.get(prefix + bubble_id)
        value: Any = None
        error = None
        if raw is not None:
            try:
                value = json.loads(raw)
            except ValueError:
                error = "value is not JSON"
        elif not active:
            error = "bubble row missing"
        last = index == len(headers) - 1
        settled = not (active and (last or raw is None))
        out.append(
            {"id": bubble_id, "type": header.get("type"), "value": value, "settled": settled, "error": error}
        )
    return out
