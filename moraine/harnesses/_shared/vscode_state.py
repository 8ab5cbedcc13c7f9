"""Read JSON values a VS Code fork keeps under ``ItemTable`` keys of its ``state.vscdb`` (Windsurf, Trae).

VS Code and its forks keep per-workspace and global state in ``state.vscdb``: a SQLite ``ItemTable(key, value)``
of JSON strings an extension rewrites whole. A subclass names the ``keys`` it reads and the ``record`` tag of its
records. Each poll opens the database read-only (``sqlite.SqlitePoller``: a busy database ends the pass) and yields,
for each key whose value changed since this reader last saw it, one snapshot record ``{record, key, value, cwd,
settled, updated}``: the parsed value, the workspace folder named by the ``workspace.json`` beside the database
(None for the global one), whether the database has been left alone for ``settle_seconds`` (the adapter then also
takes the newest entry of a conversation as complete) and when it last changed (Unix seconds: the only time a
conversation without timestamps of its own has). Positions count snapshots; the adapter remembers how much of each
conversation it emitted, so a snapshot seen again (after a restart) emits nothing twice. A table that is not
``ItemTable(key, value)`` or a value that is not JSON is reported once.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar

from moraine.harnesses._shared.vscode import workspace_folder
from moraine.harness_api.model import IngestError, RawRecord
from moraine.harness_api.reader import ReadItem
from moraine.harnesses._shared.sqlite import SqlitePoller, table_columns

__all__ = ["ItemTableReader"]


class ItemTableReader(SqlitePoller):
    """Poll ``state.vscdb`` read-only; yield a snapshot of each of ``keys`` whose value changed."""

    keys: ClassVar[tuple[str, ...]]
    record: ClassVar[str]
    default_settle_seconds = 30.0

    def __init__(self, settle_seconds: float | None = None, clock: Callable[[], float] = time.time) -> None:
        super().__init__(settle_seconds, clock)
        self._seen: dict[tuple[str, str], str] = {}  # (database, key) -> digest of the value last yielded
        self._unsettled: set[str] = set()

    def holding(self, path: Path) -> bool:
        """Return whether the last pass saw the database still changing (its newest messages wait for a later one)."""
        return str(path) in self._unsettled

    def poll(
        self, connection: sqlite3.Connection, path: Path, offset: int, line_no: int
    ) -> Iterator[ReadItem]:
        """Yield the snapshots of changed values (position ``offset`` = snapshots yielded so far)."""
        if not {"key", "value"} <= table_columns(connection, "ItemTable"):
            error = IngestError("schema_drift", f"{path.name} has no ItemTable(key, value) table")
            yield from self.once(f"schema:{path}", error, offset, line_no)
            return
        marks = ",".join("?" * len(self.keys))
        rows = connection.execute(
            f"SELECT key, CAST(value AS TEXT) FROM ItemTable WHERE key IN ({marks}) ORDER BY key", self.keys
        ).fetchall()
        updated = _updated(path)
        settled = self.clock() - updated >= self.settle_seconds
        (self._unsettled.discard if settled else self._unsettled.add)(str(path))
        cwd = workspace_folder(path.parent) if path.parent.parent.name == "workspaceStorage" else None
        for key, text in rows:
            digest = hashlib.sha256((text or "").encode("utf-8", "surrogatepass")).hexdigest() + str(settled)
            if self._seen.get((str(path), key)) == digest:
                continue
            try:
                value = json.loads(text or "")
            except ValueError as exc:
                error = IngestError("malformed_row", f"ItemTable {key!r}: value is not JSON ({exc})")
                yield from self.once((str(path), key, digest), error, offset, line_no)
                continue
            self._seen[(str(path), key)] = digest
            line_no += 1
            data = {
                "record": self.record,
                "key": key,
                "value": value,
                "cwd": cwd,
                "settled": settled,
                "updated": updated,
            }
            yield ReadItem(RawRecord(data, line_no, offset), None, offset, line_no, offset + 1, line_no)
            offset += 1


def _updated(path: Path) -> float:
    """Return when the database or its write-ahead log last changed (Unix seconds)."""
    newest = 0.0
    for candidate in (path, Path(f"{path}-wal")):
        try:
            newest = max(newest, os.stat(candidate).st_mtime)
        except OSError:
            continue
    return newest
