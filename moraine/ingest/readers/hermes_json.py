"""Read Hermes live session files (``~/.hermes/sessions/session_*.json``), which Hermes rewrites in place.

The whole file is one JSON object ``{session_id, model, session_start, last_updated, messages: [...]}`` that grows
as the session goes on. Positions count records: position 0 is the session header, position ``i + 1`` is message
``i``. Each pass re-parses the file and yields only the records after the saved position, so a rewrite emits
exactly the messages that are new. A version of the file that is not valid JSON (caught mid-write, or broken)
yields no records and is reported once; the position stays, so the next version is read from the same place.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from moraine.ingest.model import IngestError, RawRecord
from moraine.ingest.reader import ReadItem
from moraine.ingest.readers._once import ReportsOnce
from moraine.ingest.readers._whole_file import load_whole

__all__ = ["HEADER_RECORD", "MESSAGE_RECORD", "HermesSessionReader"]

HEADER_RECORD = "hermes_session"
MESSAGE_RECORD = "hermes_message"
# Session files are small; anything beyond this is not a Hermes session file.
MAX_FILE_BYTES = 256 * 1024 * 1024
_HEADER_KEYS = ("session_id", "model", "platform", "base_url", "session_start", "last_updated", "title")


class HermesSessionReader(ReportsOnce):
    """Yield a Hermes session file's header and messages after the saved position."""

    byte_offsets = False

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the records after position ``offset`` (0 = nothing read yet)."""
        loaded = load_whole(path, MAX_FILE_BYTES, lambda p: json.loads(p.read_bytes()), "JSON")
        if loaded.gone:
            return
        stat, document = loaded.stat, loaded.value
        if loaded.problem is not None:
            yield from self._once(path, stat, loaded.problem, offset, line_no)
            return
        if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
            yield from self._once(
                path, stat, "not a Hermes session object (no messages list)", offset, line_no
            )
            return
        header = {key: document[key] for key in _HEADER_KEYS if key in document}
        records: list[dict[str, Any]] = [{"record": HEADER_RECORD, "session": header}]
        records.extend(
            {"record": MESSAGE_RECORD, "session": header, "index": index, "message": message}
            for index, message in enumerate(document["messages"])
        )
        for position in range(max(offset, 0), len(records)):
            line_no += 1
            yield ReadItem(
                RawRecord(records[position], line_no, position),
                None,
                position,
                line_no,
                position + 1,
                line_no,
            )

    def _once(self, path: Path, stat: Any, detail: str, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Report a problem with this version of the file (a rewrite is a new version) once."""
        token = (str(path), int(stat.st_mtime_ns), int(stat.st_size))
        yield from self.once(token, IngestError("malformed_session_file", detail), offset, line_no)
