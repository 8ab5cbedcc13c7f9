"""Read a trace that is one JSON document its agent rewrites in place, as numbered records.

Some agents keep a session as a single JSON document that grows with every message (Gemini CLI's chat files,
QwenPaw's session files). Each pass parses the whole document again and yields the records after the saved
position (a record's position is its index). With ``reopen_last`` the last record is yielded again on the next
pass: agents fill in their newest message after first writing it (tool results, token counts), so its position
is not passed until a later record exists; the adapter emits only what it has not emitted of it before.

A version of the file that is not valid JSON (caught mid-write, or broken) or not the expected shape is reported
once per version and yields nothing; the position stays, so the next version is read from the same place. A
document rewritten with fewer records than were read (an agent that compacts its history in place) is reported
the same way; what it holds then is not read again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from moraine.ingest.model import IngestError, RawRecord
from moraine.ingest.reader import ReadItem
from moraine.harnesses._shared.once import ReportsOnce

__all__ = ["WholeJsonReader"]

# Session documents are small; anything beyond this is not one of them.
MAX_FILE_BYTES = 256 * 1024 * 1024


class WholeJsonReader(ReportsOnce):
    """Yield a whole-document trace's records after the saved position.

    By default the document is a session object with a list of messages under ``messages_key``: record 0 is ``{"record":
    header_record, "session": <the header_keys of the object>}``, record ``i + 1`` is ``{"record":
    message_record, "session": ..., "index": i, "message": <message i>}``. Other shapes override ``records``.
    """

    byte_offsets = False
    reopen_last = True
    shape = "a session object (no messages list)"  # what ``records`` expects, for the error when it is not
    header_record = "session"
    message_record = "message"
    header_keys: tuple[str, ...] = ()
    messages_key = "messages"

    def records(self, document: Any, path: Path) -> list[dict[str, Any]] | None:
        """Return the document's records in order, or None when it is not the expected shape."""
        if not isinstance(document, dict) or not isinstance(document.get(self.messages_key), list):
            return None
        header = {key: document[key] for key in self.header_keys if key in document}
        records: list[dict[str, Any]] = [{"record": self.header_record, "session": header}]
        records.extend(
            {"record": self.message_record, "session": header, "index": index, "message": message}
            for index, message in enumerate(document[self.messages_key])
        )
        return records

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the records after position ``offset`` (0 = nothing read yet)."""
        try:
            stat = path.stat()
            if stat.st_size > MAX_FILE_BYTES:
                yield from self._once(
                    path, stat, f"file of {stat.st_size} bytes is too large", offset, line_no
                )
                return
            document = json.loads(path.read_bytes())
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            try:
                stat = path.stat()
            except OSError:
                return
            yield from self._once(path, stat, f"not readable as JSON yet: {exc}", offset, line_no)
            return
        records = self.records(document, path)
        if records is None:
            yield from self._once(path, stat, f"not {self.shape}", offset, line_no)
            return
        if offset > len(records):
            detail = f"{len(records)} records where {offset} were read before: rewritten shorter, not re-read"
            yield from self._once(path, stat, detail, offset, line_no)
            return
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
        yield from self.once(token, IngestError("malformed_session_file", detail), offset, line_no)
