"""Discovery: the files a source's glob matches, and whether a given path belongs to a source.

A glob matches as ``glob.glob(pattern, recursive=True)`` does (``*``, ``?``, ``[...]`` within one name, ``**`` as a
whole name for any depth of folders, names starting with a dot only for a pattern that starts with one), except
for links to folders under ``**``. ``glob.glob`` follows every one of them, so a single ``x -> .`` made it walk
``x/x/x/...`` until the path grew too long, and three such links never ended. Here ``**`` walks every real folder
first, then follows links to folders, each only into a folder that no route has reached yet (folders are known by
``(st_dev, st_ino)``): a loop ends at once, a file keeps the path of its real folder (its stream ID), and a linked
folder elsewhere (sessions kept on another disk) is still searched. A ``*`` or a literal name follows a link as
``glob`` does: it goes one level per name of the pattern, so it cannot loop.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from moraine.config import SourceConfig

__all__ = ["discover", "matches", "newest_first"]

_MAGIC = re.compile(r"[*?[]")
_SEPARATORS = re.compile(r"[\\/]" if os.sep == "\\" else "/")


def discover(source: SourceConfig) -> list[Path]:
    """Return the regular files matching the source's glob, sorted (a stable order keeps IDs stable)."""
    found = set(_expand(source.expanded_glob()))
    return sorted(Path(p) for p in found if os.path.isfile(p))


def _expand(pattern: str) -> list[str]:
    """Return the paths matching ``pattern`` (see the module docstring); a path may come twice."""
    drive, rest = os.path.splitdrive(pattern)
    absolute = bool(rest) and _SEPARATORS.match(rest) is not None
    names = [name for name in _SEPARATORS.split(rest) if name]
    paths = [drive + os.sep if absolute else drive]
    for index, name in enumerate(names):
        last = index == len(names) - 1
        following: list[str] = []
        for base in paths:
            if name == "**":
                folders = _folders(base)
                following += folders
                if last:  # a trailing ** also matches every file below
                    following += [path for folder in folders for path in _matching(folder, "*", False)]
            elif _MAGIC.search(name):
                following += _matching(base, name, not last)
            else:
                path = os.path.join(base, name)
                if os.path.lexists(path) if last else os.path.isdir(path):
                    following.append(path)
        paths = following
    return paths


def _matching(folder: str, pattern: str, folders_only: bool) -> list[str]:
    """Return the entries of ``folder`` whose names match ``pattern`` (dot names only for a dot pattern)."""
    dots = pattern.startswith(".")
    return [
        os.path.join(folder, entry.name)
        for entry in _entries(folder)
        if (dots or not entry.name.startswith("."))
        and fnmatch.fnmatch(entry.name, pattern)
        and (not folders_only or _is_folder(entry))
    ]


def _folders(start: str) -> list[str]:
    """Return ``start`` and every folder below it not named with a leading dot, each folder once: real folders
    first, then links to folders reached by no other route (see the module docstring)."""
    seen: set[tuple[int, int]] = set()
    found: list[str] = []
    roots = [start]
    while roots:
        links: list[str] = []
        for root in roots:
            pending = [root]
            while pending:
                folder = pending.pop()
                try:
                    stat = os.stat(folder or os.curdir)
                except OSError:
                    continue
                if (stat.st_dev, stat.st_ino) in seen:
                    continue
                seen.add((stat.st_dev, stat.st_ino))
                found.append(folder)
                for entry in _entries(folder):
                    if not entry.name.startswith(".") and _is_folder(entry):
                        path = os.path.join(folder, entry.name)
                        (links if entry.is_symlink() else pending).append(path)
        roots = sorted(links)  # in name order: which of two links to one folder names it does not vary
    return found


def _entries(folder: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder or os.curdir) as entries:
            return list(entries)
    except OSError:
        return []


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()  # a link to a folder counts
    except OSError:
        return False


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
