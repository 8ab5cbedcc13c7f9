"""A trace file being written: JSONL lines, a clock, seeded IDs, and marks saying which line holds which needle."""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

__all__ = ["Mark", "TraceFile", "iso", "uuid4", "uuid7"]

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def iso(ms: int) -> str:
    """Format epoch milliseconds as RFC 3339 UTC with milliseconds (``2026-10-01T12:00:00.125Z``)."""
    return f"{datetime.fromtimestamp(ms // 1000, UTC):%Y-%m-%dT%H:%M:%S}.{ms % 1000:03d}Z"


def uuid4(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def uuid7(rng: random.Random, ms: int) -> str:
    """Return a UUIDv7-shaped id for ``ms`` (Codex session ids look like this)."""
    value = (
        (ms & ((1 << 48) - 1)) << 80
        | 0x7 << 76
        | rng.getrandbits(12) << 64
        | 0b10 << 62
        | rng.getrandbits(62)
    )
    return str(uuid.UUID(int=value))


@dataclass(frozen=True, slots=True)
class Mark:
    """Line ``index`` (0-based) of the file holds needle ``needle`` as an event of ``event_type``."""

    index: int
    needle: str
    event_type: str


@dataclass(slots=True)
class TraceFile:
    """The lines of one trace file and the needle marks in them."""

    rel_path: str
    clock_ms: int
    lines: list[str] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)

    def add(self, record: dict[str, Any], needle: str | None = None, event_type: str = "") -> None:
        """Append one record (compact JSON, UTF-8 kept), marking it when it carries a needle."""
        if needle is not None:
            self.marks.append(Mark(len(self.lines), needle, event_type))
        self.lines.append(_dumps(record))

    def tick(self, rng: random.Random, lo_ms: int = 40, hi_ms: int = 9_000) -> str:
        """Advance the clock by a random step and return the new time as a timestamp string."""
        self.clock_ms += rng.randint(lo_ms, hi_ms)
        return iso(self.clock_ms)

    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)
