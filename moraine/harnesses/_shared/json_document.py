"""Read a whole-file JSON document (rewritten in place, or written once) as numbered records.

Several harnesses keep a session, or one event, as a single JSON document rather than as lines. A
``JsonDocumentReader`` parses the whole file on each pass and asks its subclass for the document's records; positions
count records (position ``i`` = records before ``i`` already read), so a rewrite that grows the document yields exactly
the records that are new. A version of the file that is not valid JSON (caught mid-write, or broken), too large, or
not the shape the subclass expects yields no records and is reported once per version; the position stays, so the
next version is read from the same place.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from moraine.ingest.model import IngestError, RawRecord
from moraine.ingest.reader import ReadItem
from moraine.harnesses._shared.once import ReportsOnce

__all__ = ["JsonDocumentReader", "NotTheDocument"]

MAX_FILE_BYTES = 256 * 1024 * 1024


class NotTheDocument(Exception):
    """The file parsed as JSON but is not the document the reader expects (the message says why)."""


class JsonDocumentReader(ReportsOnce):
    """Yield the records of a whole-file JSON document after the saved position (see the module docstring)."""

    byte_offsets = False

    def records(self, document: Any, path: Path) -> list[dict[str, Any]]:
        """Return the document's records in order (raise ``NotTheDocument`` for a document of another shape)."""
        raise NotImplementedError

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the records after position ``offset`` (0 = nothing read yet)."""
        try:
            stat = path.stat()
            if stat.st_size > MAX_FILE_BYTES:
                detail = f"file of {stat.st_size} bytes is too large"
                yield from self._once(path, stat, detail, offset, line_no)
                return
            records = self.records(json.loads(path.read_bytes()), path)
        except FileNotFoundError:
            return
        except (OSError, ValueError, NotTheDocument) as exc:
            try:
                stat = path.stat()
            except OSError:
                return
            yield from self._once(path, stat, f"not readable as this document yet: {exc}", offset, line_no)
            return
        for position in range(max(offset, 0), len(records)):
            line_no += 1
            record = RawRecord(records[position], line_no, position)
            yield ReadItem(record, None, position, line_no, position + 1, line_no)

    def _once(self, path: Path, stat: Any, detail: str, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Report a problem with this version of the file (a rewrite is a new version) once."""
        token = (str(path), int(stat.st_mtime_ns), int(stat.st_size))
        yield from self.once(token, IngestError("malformed_document", detail), offset, line_no)
