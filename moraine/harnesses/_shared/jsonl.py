"""Streaming JSONL reader: bounded memory, byte offsets, tolerant of anything a file may contain.

Lines are read in chunks; a line longer than ``max_line_bytes`` is skipped without being held in memory; invalid
UTF-8, non-JSON and too deeply nested lines become ``IngestError`` items; blank lines are skipped silently; an
incomplete trailing line (no newline yet) is left for the next pass.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import orjson

from moraine.harness_api.model import IngestError, RawRecord
from moraine.harness_api.reader import ReadItem

__all__ = ["DEFAULT_MAX_LINE_BYTES", "JsonlReader"]

DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024
_CHUNK = 1024 * 1024


class JsonlReader:
    """Read one JSON value per line."""

    byte_offsets = True

    def __init__(self, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES, chunk_bytes: int = _CHUNK) -> None:
        self.max_line_bytes = max_line_bytes
        self.chunk_bytes = chunk_bytes

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the complete lines of ``path`` after byte ``offset`` as parsed records or errors."""
        with path.open("rb") as handle:
            handle.seek(offset)
            buf = bytearray()
            pos = offset  # file offset of buf[0]
            skipping_from: int | None = None  # start offset of an over-long line being skipped
            while True:
                chunk = handle.read(self.chunk_bytes)
                if not chunk:
                    return
                if skipping_from is not None:
                    newline = chunk.find(b"\n")
                    if newline < 0:
                        pos += len(chunk)
                        continue
                    end = pos + newline + 1
                    line_no += 1
                    size = end - skipping_from
                    yield ReadItem(
                        None,
                        IngestError("line_too_long", f"line of {size} bytes exceeds {self.max_line_bytes}"),
                        skipping_from,
                        line_no,
                        end,
                        line_no,
                    )
                    skipping_from = None
                    buf = bytearray(chunk[newline + 1 :])
                    pos = end
                else:
                    buf += chunk
                start = 0
                while True:
                    newline = buf.find(b"\n", start)
                    if newline < 0:
                        break
                    line_no += 1
                    line = bytes(buf[start:newline])
                    item: ReadItem | None
                    if len(line) > self.max_line_bytes:
                        item = ReadItem(
                            None,
                            IngestError(
                                "line_too_long",
                                f"line of {len(line) + 1} bytes exceeds {self.max_line_bytes}",
                            ),
                            pos + start,
                            line_no,
                            pos + newline + 1,
                            line_no,
                        )
                    else:
                        item = _parse(line, pos + start, line_no, pos + newline + 1)
                    if item is not None:
                        yield item
                    start = newline + 1
                del buf[:start]
                pos += start
                if len(buf) > self.max_line_bytes:
                    skipping_from = pos
                    pos += len(buf)
                    buf = bytearray()


# orjson parses valid JSON as the standard library does except integers beyond 64 bits (it makes them floats): a line
# with a run of 19+ digits anywhere goes to the standard library, as does every line orjson refuses (NaN/Infinity,
# lone surrogates, nesting beyond 1024, invalid UTF-8), so results and error messages stay the standard library's.
# The digit-run check maps digits to "0" and everything else to " " in one pass (a regex costs 8x as much).
_DIGITS_ONLY = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))
_LONG_NUMBER = b"0" * 19


def _parse(line: bytes, offset: int, line_no: int, end: int) -> ReadItem | None:
    stripped = line.strip()
    if not stripped:
        return None
    if _LONG_NUMBER not in stripped.translate(_DIGITS_ONLY):
        try:
            data = orjson.loads(stripped)
        except orjson.JSONDecodeError:
            pass
        else:
            return ReadItem(RawRecord(data, line_no, offset), None, offset, line_no, end, line_no)
    try:
        data = json.loads(stripped.decode("utf-8"))  # never let json guess UTF-16/32 from the first bytes
    except UnicodeDecodeError as exc:
        detail = f"invalid UTF-8 at byte {exc.start} of the line"  # never the bytes themselves
        return ReadItem(None, IngestError("invalid_utf8", detail), offset, line_no, end, line_no)
    except RecursionError:
        return ReadItem(
            None, IngestError("json_too_deep", "JSON nesting too deep"), offset, line_no, end, line_no
        )
    except ValueError as exc:
        return ReadItem(
            None,
            IngestError("invalid_json", str(exc)),  # json's messages give a position, never the text
            offset,
            line_no,
            end,
            line_no,
        )
    return ReadItem(RawRecord(data, line_no, offset), None, offset, line_no, end, line_no)
