"""Load a trace file that is re-read whole on every pass (a JSON document an agent rewrites in place or appends to).

``load_whole`` bounds the size, tells "the file is gone" (nothing to do) apart from "this version of the file cannot
be read" (a problem to report once), and returns the file's stat so the caller can name the version it read.
``SettlingReader`` is the base of readers of such files that hold back the part still being written until the file
has been left alone for a while.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.once import ReportsOnce

__all__ = ["Loaded", "SettlingReader", "load_whole"]


@dataclass(frozen=True, slots=True)
class Loaded:
    """What loading gave: the ``value``, or the ``problem`` (``stat`` is None when the file is gone or unreadable)."""

    value: Any = None
    stat: os.stat_result | None = None
    problem: str | None = None

    @property
    def gone(self) -> bool:
        """Whether there is nothing to read (the file vanished) and nothing to report."""
        return self.stat is None and self.problem is None


def load_whole(path: Path, max_bytes: int, load: Callable[[Path], Any], what: str) -> Loaded:
    """Return ``load(path)`` for a file of at most ``max_bytes``; a failure names ``what`` the file should be."""
    try:
        stat = path.stat()
        if stat.st_size > max_bytes:
            return Loaded(stat=stat, problem=f"file of {stat.st_size} bytes is too large")
        return Loaded(value=load(path), stat=stat)
    except FileNotFoundError:
        return Loaded()
    except (OSError, ValueError) as exc:
        try:
            stat = path.stat()
        except OSError:
            return Loaded()
        return Loaded(stat=stat, problem=f"not readable as {what} yet: {exc}")


class SettlingReader(ReportsOnce):
    """A reader of whole files whose newest part counts as written once the file is ``settle_seconds`` old.

    ``clock`` is the time source (tests move it). Positions are record counts, not byte offsets. A subclass calls
    ``hold`` after each pass: whether it left records of the file for a later one (``holding`` tells the pipeline).
    """

    byte_offsets = False
    default_settle_seconds = 30.0

    def __init__(self, settle_seconds: float | None = None, clock: Callable[[], float] = time.time) -> None:
        super().__init__()
        self.settle_seconds = self.default_settle_seconds if settle_seconds is None else settle_seconds
        self.clock = clock
        self._held: set[str] = set()

    def hold(self, path: Path, held: bool) -> None:
        """Record whether the pass over ``path`` left records for a later pass."""
        (self._held.add if held else self._held.discard)(str(path))

    def holding(self, path: Path) -> bool:
        """Return whether the last pass over ``path`` left records for a later pass."""
        return str(path) in self._held

    def idle(self, stat: os.stat_result) -> bool:
        """Return whether the file (as ``stat`` saw it) has been left alone for ``settle_seconds``."""
        return self.clock() - stat.st_mtime >= self.settle_seconds
