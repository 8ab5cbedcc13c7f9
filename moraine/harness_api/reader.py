"""The reader contract: a stream (one trace file) read from a saved position, one item per record.

A reader yields, for each complete record after the start position, either the parsed record or the reason it
could not be parsed, plus the position to resume from after it. It never yields an incomplete trailing record:
that stays for the next pass. ``byte_offsets`` says positions are byte offsets into the file (so the pipeline
can detect truncation by size and rewrites by the file's prefix). A reader of a file rewritten whole may also hold
back records that are complete only once the file stops changing (the answer still being written): its optional
``holding(path)`` says so after a pass, and the pipeline then reads the file again on a later pass even if it has
not changed (``holds_tail``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from moraine.harness_api.model import IngestError, RawRecord

__all__ = ["ReadItem", "Reader", "holds_tail"]


@dataclass(frozen=True, slots=True)
class ReadItem:
    """One record of a stream: parsed (``record``) or not (``error``); ``end``/``end_line`` = resume position."""

    record: RawRecord | None
    error: IngestError | None
    offset: int
    line_no: int
    end: int
    end_line: int


class Reader(Protocol):
    byte_offsets: bool

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the complete records of ``path`` from ``offset`` (``line_no`` lines already consumed)."""
        ...


def holds_tail(reader: Reader, path: Path) -> bool:
    """Return whether ``reader``'s last pass over ``path`` left records for a later pass (see the docstring)."""
    holding = getattr(reader, "holding", None)
    return bool(holding(path)) if callable(holding) else False
