"""Read a trace kept as one JSON document (rewritten in place, or written once) as numbered records.

Several harnesses keep a session, or one event, as a single JSON document rather than as lines. A
``JsonDocumentReader`` parses the whole file on each pass and asks its subclass for the document's records
(``records`` raises ``NotTheDocument`` for a document of another shape); positions count records (position ``i`` =
records before ``i`` already read), so a rewrite that grows the document yields exactly the records that are new. A
version of the file that is not valid JSON (caught mid-write, or broken), too large, nested too deeply, not the expected shape, or
rewritten with fewer records than were read (an agent that compacts its history in place) yields nothing and is
reported once per version (path, mtime, size); the position stays, so the next version is read from the same place.

Two options, for agents that change what they already wrote: with ``reopen_last`` the last record is yielded again
on the next pass (an agent that fills in its newest message after first writing it: tool results, token counts; its
adapter emits only what it has not emitted of it before); with ``reread_header`` every pass after the first yields
record 0 again without moving the position (metadata the agent sets later, such as a title, is read).

``SessionDocumentReader`` is the common shape: a session object with a list of messages under ``messages_key``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.depth import loads
from moraine.harnesses._shared.once import ReportsOnce
from moraine.harnesses._shared.whole_file import load_whole
from moraine.harness_api.model import IngestError, RawRecord
from moraine.harness_api.reader import ReadItem

__all__ = ["MAX_FILE_BYTES", "JsonDocumentReader", "NotTheDocument", "SessionDocumentReader"]

# Session documents are small; anything beyond this is not one of them.
MAX_FILE_BYTES = 256 * 1024 * 1024


class NotTheDocument(Exception):
    """The file parsed as JSON but is not the document the reader expects (the message says why)."""


def _parse(path: Path) -> Any:
    return loads(path.read_bytes())


class JsonDocumentReader(ReportsOnce):
    """Yield the records of a whole-file JSON document after the saved position (see the module docstring)."""

    byte_offsets = False
    error_reason = "malformed_document"  # the reason of the errors reported for a version of the file
    shape = "this document"  # what ``records`` expects, for the error when it is not
    reopen_last = False
    reread_header = False

    def records(self, document: Any, path: Path) -> list[dict[str, Any]]:
        """Return the document's records in order (raise ``NotTheDocument`` for a document of another shape)."""
        raise NotImplementedError

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the records after position ``offset`` (0 = nothing read yet)."""
        loaded = load_whole(path, MAX_FILE_BYTES, _parse, "JSON")
        if loaded.stat is None:
            return
        if loaded.problem is not None:
            yield from self._once(path, loaded.stat, loaded.problem, offset, line_no)
            return
        try:
            records = self.records(loaded.value, path)
        except (NotTheDocument, OSError, ValueError) as exc:  # a subclass may read sidecars and parse values
            yield from self._once(path, loaded.stat, f"not {self.shape}: {exc}", offset, line_no)
            return
        if offset > len(records):
            detail = f"{len(records)} records where {offset} were read before: rewritten shorter, not re-read"
            yield from self._once(path, loaded.stat, detail, offset, line_no)
            return
        if self.reread_header and offset > 0 and records:
            yield ReadItem(RawRecord(records[0], line_no, 0), None, offset, line_no, offset, line_no)
        last = len(records) - 1
        for position in range(max(offset, 0), len(records)):
            line_no += 1
            end = position if self.reopen_last and position == last and position > 0 else position + 1
            yield ReadItem(
                RawRecord(records[position], line_no, position), None, position, line_no, end, line_no
            )

    def _once(
        self, path: Path, stat: os.stat_result, detail: str, offset: int, line_no: int
    ) -> Iterator[ReadItem]:
        """Report a problem with this version of the file (a rewrite is a new version) once."""
        token = (str(path), int(stat.st_mtime_ns), int(stat.st_size))
        yield from self.once(token, IngestError(self.error_reason, detail), offset, line_no)


class SessionDocumentReader(JsonDocumentReader):
    """A session object with a list of messages under ``messages_key``, its last message reopened by default.

    Record 0 is ``{"record": header_record, "session": <the header_keys of the object>}``, record ``i + 1`` is
    ``{"record": message_record, "session": ..., "index": i, "message": <message i>}``. Other shapes override
    ``records``.
    """

    error_reason = "malformed_session_file"
    shape = "a session object"
    reopen_last = True
    header_record = "session"
    message_record = "message"
    header_keys: tuple[str, ...] = ()
    messages_key = "messages"

    def records(self, document: Any, path: Path) -> list[dict[str, Any]]:
        """Return the header and one record per message (raise ``NotTheDocument`` without a messages list)."""
        if not isinstance(document, dict) or not isinstance(document.get(self.messages_key), list):
            raise NotTheDocument(f"no {self.messages_key} list")
        header = {key: document[key] for key in self.header_keys if key in document}
        records: list[dict[str, Any]] = [{"record": self.header_record, "session": header}]
        records.extend(
            {"record": self.message_record, "session": header, "index": index, "message": message}
            for index, message in enumerate(document[self.messages_key])
        )
        return records
