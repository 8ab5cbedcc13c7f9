"""Discovery: the files a source's glob matches, and whether a given path belongs to a source."""

from __future__ import annotations

import glob as globlib
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from moraine.config import SourceConfig

__all__ = ["discover", "matches", "newest_first"]


def discover(source: SourceConfig) -> list[Path]:
    """Return the regular files matching the source's glob, sorted (a stable order keeps IDs stable)."""
    found = globlib.glob(source.expanded_glob(), recursive=True)
    return sorted(Path(p) for p in found if Path(p).is_file())


def newest_first(paths: Sequence[Path]) -> list[int]:
    """Return the indices of ``paths`` ordered by modification time, newest first (ties and unreadable files keep
    their given order; an unreadable file goes last, where reading it reports why)."""
    mtimes = []
    for path in paths:
        try:
            mtimes.append(-path.stat().st_mtime_ns)
        except OSError:
            mtimes.append(0)
    return sorted(range(len(paths)), key=mtimes.__getitem__)


@lru_cache(maxsize=64)
def _compile(pattern: str) -> re.Pattern[str]:
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            end = pattern.find("]", i + 1)
            if end < 0:
                out.append(re.escape("["))
                i += 1
            else:
                body = pattern[i + 1 : end]
                out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
                i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("^" + "".join(out) + "$")


def matches(source: SourceConfig, path: Path) -> bool:
    """Return whether ``path`` is one of the source's files (glob semantics, ``**`` spans directories)."""
    return bool(_compile(source.expanded_glob()).match(str(path)))
