"""Read Zed's agent threads (``threads/threads.db`` in Zed's data folder) as one snapshot per changed thread.

Zed keeps one row per thread in ``threads(id, summary, updated_at, data_type, data)`` (newer releases add
``parent_id``, ``folder_paths`` and ``created_at``) and rewrites the row as the thread grows. ``data`` is the whole
thread as JSON, stored as is (``data_type`` ``json``) or zstd-compressed (``zstd``). This reader polls the store
read-only and yields, for every thread updated at or after the saved position, ``{record: "zed_thread", thread:
{id, summary, updated_at, created_at, parent_id, folder_paths}, document, settled}``. Positions are the threads'
``updated_at`` in Unix milliseconds; a thread updated less than ``settle_seconds`` ago may still be streaming its
last message, so it is marked unsettled and the position stays at it until it settles.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import zstandard

from moraine.harnesses._shared.bounded import TooLarge, check_json_cost, decompress_zstd
from moraine.harness_api.model import IngestError, RawRecord
from moraine.harness_api.reader import ReadItem
from moraine.harnesses._shared.depth import loads
from moraine.harnesses._shared.sqlite import table_columns
from moraine.harnesses._shared.sqlite_rows import GuardedPoller

__all__ = ["THREAD_RECORD", "ZedThreadsReader"]

THREAD_RECORD = "zed_thread"
DEFAULT_SETTLE_SECONDS = 60.0
# A thread's document, decompressed: 16 MiB is four times the text of a 1M-token context (the largest any model
# Zed offers has), so a real thread stays far below it; a hostile row of 3.6 KB decompressed to 256 MiB before
# (the former bound) and took 1.25 GB more to parse. Parsing one may take at most MAX_THREAD_COST of memory
# (``moraine.harnesses._shared.bounded``): a thread of text costs about 4x its size, one of tiny objects more.
MAX_THREAD_BYTES = 6 * 1024 * 1024
MAX_THREAD_COST = 16 * 1024 * 1024
_REQUIRED = {"id", "summary", "updated_at", "data_type", "data"}
_OPTIONAL = ("parent_id", "folder_paths", "created_at")
_UPDATED_MS = "CAST(round((julianday(updated_at) - 2440587.5) * 86400000.0) AS INTEGER)"


class ZedThreadsReader(GuardedPoller):
    """Poll ``threads.db`` read-only; yield one snapshot per thread updated since the position."""

    default_settle_seconds = DEFAULT_SETTLE_SECONDS

    def poll(
        self, connection: sqlite3.Connection, path: Path, offset: int, line_no: int
    ) -> Iterator[ReadItem]:
        """Yield the threads updated at or after ``offset`` (Unix ms), oldest first."""
        columns = table_columns(connection, "threads")
        missing = _REQUIRED - columns
        if missing:
            detail = f"table threads lacks {', '.join(sorted(missing))}: not a known Zed threads schema"
            yield from self.once(f"schema:{path}", IngestError("schema_drift", detail), offset, line_no)
            return
        optional = ", ".join(name if name in columns else "NULL" for name in _OPTIONAL)
        rows = connection.execute(
            f"SELECT id, summary, updated_at, data_type, data, {optional}, {_UPDATED_MS} AS updated "
            "FROM threads WHERE updated IS NOT NULL AND updated >= ? ORDER BY updated, id",
            (offset,),
        ).fetchall()
        now_ms = self.clock() * 1000.0
        held: int | None = None
        for row in rows:
            updated = int(row[-1])
            settled = now_ms - updated >= self.settle_seconds * 1000.0
            if not settled:
                held = updated if held is None else min(held, updated)
            end = updated if held is None else min(held, updated)
            line_no += 1
            document, problem = _document(row[3], row[4])
            if problem is not None:
                error = IngestError("malformed_row", f"thread {row[0]}: {problem}")
                yield from self.once(("row", row[0], row[2]), error, end, line_no)
                continue
            thread = dict(zip(("id", "summary", "updated_at"), row[:3], strict=True))
            thread.update(zip(_OPTIONAL, row[5:8], strict=True))
            data = {"record": THREAD_RECORD, "thread": thread, "document": document, "settled": settled}
            yield ReadItem(RawRecord(data, line_no, updated), None, updated, line_no, end, line_no)


def _document(data_type: Any, data: Any) -> tuple[dict[str, Any], str | None]:
    """Return the thread document of a row's ``data`` (decompressed when ``data_type`` says zstd)."""
    raw = data.encode() if isinstance(data, str) else data
    if not isinstance(raw, bytes):
        return {}, "data is not text or bytes"
    kind = str(data_type or "json").lower()
    try:
        if kind == "zstd":
            raw = decompress_zstd(raw, MAX_THREAD_BYTES)
        elif kind != "json":
            return {}, f"unknown data_type {kind[:20]!r}"
        check_json_cost(raw, MAX_THREAD_COST)
        document = loads(raw)
    except TooLarge as exc:
        return {}, f"data is too large to read: it {exc}"
    except (zstandard.ZstdError, ValueError) as exc:
        return {}, f"data is not readable ({exc})"
    if not isinstance(document, dict):
        return {}, "data is not a JSON object"
    return document, None
