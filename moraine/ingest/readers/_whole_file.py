"""Load a trace file that is re-read whole on every pass (a JSON document an agent rewrites in place or appends to).

``load_whole`` bounds the size, tells "the file is gone" (nothing to do) apart from "this version of the file cannot
be read" (a problem to report once), and returns the file's stat so the caller can name the version it read.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Loaded", "load_whole"]


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
