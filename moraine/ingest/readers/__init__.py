"""Readers for trace sources that are not JSON Lines: SQLite stores and JSON files rewritten in place.

Each satisfies ``moraine.ingest.reader.Reader`` with ``byte_offsets = False``: positions are not byte offsets but a
monotonic cursor the reader defines (a row id, a message index, an update watermark), so the pipeline must not
detect truncation or rewrites by file size, prefix or inode for these formats. It calls
``reader.read(path, offset, line_no)`` on every poll (or file change), hands each ``ReadItem.record`` to the
source's adapter and checkpoints ``ReadItem.end`` / ``end_line`` together with the adapter state. A locked or busy
database ends the pass early without error; the next poll resumes from the same position. The adapter is the
harness's (``moraine.ingest.adapters``); one reader instance may serve every stream of its format.
"""

from __future__ import annotations

import importlib

from moraine.ingest.reader import Reader

__all__ = ["READERS", "reader_for"]

# format (as in moraine.ingest.sources) -> "module:Class"
READERS: dict[str, str] = {
    "cursor_sqlite": "moraine.ingest.readers.sqlite_cursor:CursorSqliteReader",
    "opencode_sqlite": "moraine.ingest.readers.sqlite_opencode:OpenCodeReader",
    "nac_sqlite": "moraine.ingest.readers.sqlite_nac:NacReader",
    "session_json": "moraine.ingest.readers.hermes_json:HermesSessionReader",
}


def reader_for(format_: str) -> Reader | None:
    """Return a new reader for a non-JSONL source format, or None when the format is not one of these."""
    target = READERS.get(format_)
    if target is None:
        return None
    module_name, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    reader: Reader = cls()
    return reader
