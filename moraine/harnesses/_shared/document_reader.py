"""Read a session kept as one JSON document that its harness rewrites in place, as records by position.

A subclass turns the parsed document into its records (a header, then one record per message) with ``records``;
positions count records, so each pass re-parses the file and yields only the records after the saved position,
and a rewrite that appends messages yields exactly the new ones. A version of the file that is not JSON yet
(caught mid-write) or not of the harness's shape yields nothing and is reported once per version (path, mtime,
size); the position stays, so the next version is read from the same place. Every pass after the first yields the
header (record 0) again without moving the position, so metadata the harness sets later (a title) is read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from moraine.ingest.model import IngestError, RawRecord
from moraine.ingest.reader import ReadItem
from moraine.harnesses._shared.once import ReportsOnce

__all__ = ["DocumentReader", "NotThisFormat", "json_lines"]

# Session documents are small; a larger file is not one.
MAX_DOCUMENT_BYTES = 256 * 1024 * 1024


class NotThisFormat(Exception):
    """The document is valid JSON but not of the harness's shape (the message says how)."""


class DocumentReader(ReportsOnce):
    """Yield a session document's records after the saved position (see the module docstring)."""

    byte_offsets = False

    def records(self, path: Path, document: Any) -> list[dict[str, Any]]:
        """Return the records of one parsed document, in order (raise ``NotThisFormat`` for another shape)."""
        raise NotImplementedError

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the records after position ``offset`` (0 = nothing read yet)."""
        try:
            stat = path.stat()
            if stat.st_size > MAX_DOCUMENT_BYTES:
                raise NotThisFormat(f"file of {stat.st_size} bytes is too large for a session document")
            records = self.records(path, json.loads(path.read_bytes()))
        except FileNotFoundError:
            return
        except (OSError, ValueError, NotThisFormat) as exc:
            try:
                version = (str(path), path.stat().st_mtime_ns, path.stat().st_size)
            except OSError:
                return
            error = IngestError("malformed_session_file", f"not readable as a session document: {exc}")
            yield from self.once(version, error, offset, line_no)
            return
        if offset > 0 and records:
            # The header again, without moving the position: metadata set since (a title) is seen.
            yield ReadItem(RawRecord(records[0], line_no, 0), None, offset, line_no, offset, line_no)
        for position in range(max(offset, 0), len(records)):
            line_no += 1
            record = RawRecord(records[position], line_no, position)
            yield ReadItem(record, None, position, line_no, position + 1, line_no)


def json_lines(path: Path) -> list[Any]:
    """Return the values of a JSON-lines sidecar (none when it is absent).

    A line that is not JSON is kept as its text (for the adapter to report); an unterminated last line that is not
    JSON is still being written and is left for the next pass.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    lines = text.split("\n")
    out: list[Any] = []
    for number, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except ValueError:
            if number < len(lines) - 1:
                out.append(line)
    return out
