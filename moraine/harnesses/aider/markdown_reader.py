"""Read Aider's per-repository chat history (``<repo>/.aider.chat.history.md``) as one record per block of lines.

Aider appends Markdown to the file as it goes: ``# aider chat started at <YYYY-MM-DD HH:MM:SS>`` opens a run (one
launch of aider), ``#### <text>`` lines are what the user typed, ``> <text>`` lines are aider's own output (edits
applied, commands run, token reports, warnings), and any other line is the model's reply. This reader splits the
file at every change of those channels and yields ``{record: "aider_run", started}`` for a run header and
``{record: "aider_block", channel: user|assistant|tool, lines}`` for each block (blank lines join the block they
are in). A block ends where the next channel starts, or at the end of the file once its last line is complete;
positions are byte offsets of block starts, so an appended file is read from where the last pass stopped.
A block longer than ``MAX_BLOCK_BYTES`` is reported and skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from moraine.harness_api.model import IngestError, RawRecord
from moraine.harness_api.reader import ReadItem

__all__ = ["BLOCK_RECORD", "RUN_RECORD", "AiderMarkdownReader", "HEADER_PREFIX"]

RUN_RECORD = "aider_run"
BLOCK_RECORD = "aider_block"
HEADER_PREFIX = "# aider chat started at "
MAX_BLOCK_BYTES = 8 * 1024 * 1024


def _channel(line: str) -> tuple[str | None, str]:
    """Return the channel a line belongs to (None: blank, joins the current block) and its text."""
    if line.startswith("#### ") or line == "####":
        return "user", line[5:].rstrip()
    if line.startswith("> ") or line == ">":
        return "tool", line[2:].rstrip()
    if not line.strip():
        return None, ""
    return "assistant", line.rstrip()


class _Block:
    """The block being gathered: where it starts and its lines."""

    def __init__(self, channel: str, offset: int, line_no: int) -> None:
        self.channel = channel
        self.offset = offset
        self.line_no = line_no
        self.lines: list[str] = []
        self.size = 0

    def record(self) -> dict[str, Any]:
        while self.lines and not self.lines[-1].strip():
            self.lines.pop()
        return {"record": BLOCK_RECORD, "channel": self.channel, "lines": self.lines}


class AiderMarkdownReader:
    """Yield an Aider chat history's run headers and blocks after byte ``offset``."""

    byte_offsets = True

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the complete blocks of ``path`` after byte ``offset`` (``line_no`` lines already read)."""
        block: _Block | None = None
        position = offset
        with path.open("rb") as handle:
            handle.seek(offset)
            for raw in handle:
                if not raw.endswith(b"\n"):
                    return  # a line still being written: it and its block wait for the next pass
                start, position = position, position + len(raw)
                line_no += 1
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                if line.startswith(HEADER_PREFIX):
                    if block is not None:
                        yield _finish(block, start, line_no - 1)
                        block = None
                    record = {"record": RUN_RECORD, "started": line[len(HEADER_PREFIX) :].strip()}
                    yield ReadItem(RawRecord(record, line_no, start), None, start, line_no, position, line_no)
                    continue
                channel, text = _channel(line)
                if channel is None and block is None:
                    continue  # blank lines between blocks belong to no block
                if channel is not None and (block is None or channel != block.channel):
                    if block is not None:
                        yield _finish(block, start, line_no - 1)
                    block = _Block(channel, start, line_no)
                assert block is not None
                block.size += len(raw)
                if block.size <= MAX_BLOCK_BYTES:
                    block.lines.append(text)
        if block is not None:
            yield _finish(block, position, line_no)


def _finish(block: _Block, end: int, end_line: int) -> ReadItem:
    if block.size > MAX_BLOCK_BYTES:
        error = IngestError("block_too_long", f"block of {block.size} bytes exceeds {MAX_BLOCK_BYTES}")
        return ReadItem(None, error, block.offset, block.line_no, end, end_line)
    record = RawRecord(block.record(), block.line_no, block.offset)
    return ReadItem(record, None, block.offset, block.line_no, end, end_line)
