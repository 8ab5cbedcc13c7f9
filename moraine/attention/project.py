"""Project identity of a path: its worktree root (nearest Git boundary) and the Git common directory behind it.

A main checkout, its linked worktrees (``git worktree add``) and agent-isolation worktrees (``.claude/worktrees/<n>``,
``.codex/worktrees/<n>``) share one Git common directory, hence one project identity; a file's *tail* is its path
relative to its worktree root, so the same logical file has the same tail in every checkout. Without Git metadata a
known, existing directory (the session's working directory, or the server's launch directory) is its own identity.

``.git`` entries are read directly (a directory, or a file ``gitdir: <dir>`` whose target may hold ``commondir``);
git is never run. Lookups are cached per directory, so ingest pays a few ``stat`` calls per new directory only.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
import time
from dataclasses import dataclass

__all__ = ["AGENT_WORKTREE_DIRS", "Boundary", "Placement", "ProjectResolver", "normalize_abs", "place_within"]

# Agent-isolation worktrees live at <repo>/<marker>/<name>: when such a worktree is gone from disk, a path inside it
# still belongs to <repo>'s project with <repo>/<marker>/<name> as its worktree root.
AGENT_WORKTREE_DIRS: tuple[tuple[str, str], ...] = ((".claude", "worktrees"), (".codex", "worktrees"))
_WINDOWS_ABS = re.compile(r"^[A-Za-z]:[\\/]")
_MAX_GITFILE = 4096


@dataclass(frozen=True, slots=True)
class Boundary:
    """A worktree root and the project identity it belongs to."""

    root: str
    project_id: str


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a file sits: its absolute path, its root-relative tail, its root and project (unknown: None / "")."""

    path: str
    tail: str
    root: str | None
    project_id: str


def normalize_abs(path: str) -> str:
    """Return the lexical normal form of an absolute POSIX path (``.``/``..``/``//`` collapsed)."""
    normal = posixpath.normpath(path)
    return "/" + normal.lstrip("/") if normal.startswith("//") else normal


def _digest(kind: str, text: str) -> str:
    return f"{kind}:" + hashlib.sha256(f"moraine:project:{kind}\0{text}".encode()).hexdigest()[:32]


def _read_small(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(_MAX_GITFILE)
    except OSError:
        return None


def _common_dir(dot_git: str) -> str | None:
    """Return the Git common directory behind a ``.git`` entry, or None when it is not Git metadata."""
    if os.path.isdir(dot_git):
        return os.path.realpath(dot_git)
    text = _read_small(dot_git)
    if text is None:
        return None
    first = text.strip().splitlines()[0] if text.strip() else ""
    if not first.startswith("gitdir:"):
        return None
    gitdir = first[len("gitdir:") :].strip()
    if not gitdir:
        return None
    if not posixpath.isabs(gitdir):
        gitdir = posixpath.join(posixpath.dirname(dot_git), gitdir)
    gitdir = normalize_abs(gitdir)
    commondir = _read_small(posixpath.join(gitdir, "commondir"))
    if commondir is not None and commondir.strip():
        common = commondir.strip().splitlines()[0]
        if not posixpath.isabs(common):
            common = posixpath.join(gitdir, common)
        return os.path.realpath(common)
    parent = posixpath.dirname(gitdir)
    if not os.path.isdir(gitdir) and posixpath.basename(parent) == "worktrees":
        # A pruned linked worktree: <common>/worktrees/<name> is gone, its common directory is still the parent's.
        return os.path.realpath(posixpath.dirname(parent))
    return os.path.realpath(gitdir)


class ProjectResolver:
    """Find worktree roots and project identities, caching per directory (bounded, entries live ``ttl_seconds``).

    ``ignore`` lists directories whose ``.git`` is never a boundary (default: the home directory, so a dotfiles
    repository at ``~`` does not swallow every file under it).
    """

    def __init__(
        self, ignore: tuple[str, ...] | None = None, max_entries: int = 65536, ttl_seconds: float = 300.0
    ) -> None:
        home = os.path.expanduser("~")
        self._ignore = frozenset(normalize_abs(p) for p in (ignore if ignore is not None else (home,)))
        self._max = max_entries
        self._ttl = ttl_seconds
        self._boundaries: dict[str, tuple[Boundary | None, float]] = {}

    def git_boundary(self, directory: str) -> Boundary | None:
        """Return the nearest Git boundary at or above ``directory`` (absolute), or None."""
        directory = normalize_abs(directory)
        now = time.monotonic()
        pending: list[str] = []
        found: Boundary | None = None
        current = directory
        while True:
            cached = self._boundaries.get(current)
            if cached is not None and cached[1] > now:
                found = cached[0]
                break
            pending.append(current)
            if current not in self._ignore:
                common = _common_dir(posixpath.join(current, ".git"))
                if common is not None:
                    found = Boundary(current, _digest("git", common))
                    break
            parent = posixpath.dirname(current)
            if parent == current:
                break
            current = parent
        if len(self._boundaries) + len(pending) > self._max:
            self._boundaries.clear()
        expires = now + self._ttl
        for entry in pending:
            self._boundaries[entry] = (found, expires)
        return found

    def directory_identity(self, directory: str) -> str | None:
        """Return the identity of an existing non-Git directory (its canonical path), or None if it is absent."""
        if not os.path.isdir(directory):
            return None
        return _digest("dir", os.path.realpath(directory))

    def project_of(self, directory: str) -> str | None:
        """Return the project identity of a directory: its Git common directory, else the directory itself."""
        directory = normalize_abs(directory)
        boundary = self.git_boundary(directory)
        if boundary is not None:
            return boundary.project_id
        return self.directory_identity(directory)

    def place(self, path: str, base: str | None) -> Placement:
        """Place a file path; a relative path resolves against ``base`` (the event's working directory).

        The root is the nearest Git boundary, else ``base`` itself when the file lies beneath that existing non-Git
        directory; otherwise the root is unknown and the tail is the absolute (or, without ``base``, relative) path.
        """
        if _WINDOWS_ABS.match(path):
            foreign = path.replace("\\", "/")
            return Placement(foreign, foreign, None, "")
        if not posixpath.isabs(path):
            if base is None or not posixpath.isabs(base):
                relative = posixpath.normpath(path)
                return Placement(relative, relative, None, "")
            path = posixpath.join(base, path)
        absolute = normalize_abs(path)
        boundary = self.git_boundary(posixpath.dirname(absolute))
        if boundary is not None:
            return place_within(absolute, boundary)
        if base is not None and posixpath.isabs(base):
            root = normalize_abs(base)
            if absolute.startswith(root.rstrip("/") + "/"):
                identity = self.directory_identity(root)
                if identity is not None:
                    return Placement(absolute, posixpath.relpath(absolute, root), root, identity)
        return Placement(absolute, absolute, None, "")


def place_within(absolute: str, boundary: Boundary) -> Placement:
    """Place ``absolute`` under ``boundary``, descending into an agent-isolation worktree the path names."""
    tail = posixpath.relpath(absolute, boundary.root)
    parts = tail.split("/")
    for marker in AGENT_WORKTREE_DIRS:
        if len(parts) > 3 and tuple(parts[:2]) == marker:
            root = posixpath.join(boundary.root, *parts[:3])
            return Placement(absolute, "/".join(parts[3:]), root, boundary.project_id)
    return Placement(absolute, tail, boundary.root, boundary.project_id)
