"""file_attention's query-side path rules: a requested path becomes a project-relative tail and a launch project.

Absolute paths lose their nearest Git boundary, or the non-Git launch directory they lie beneath; relative paths are
first resolved from the launch directory (so a missing file keeps its launch-project provenance). A path that can be
reduced neither way is matched literally (``tail_is_absolute``). ``scope=project`` needs the launch project's
identity: its Git common directory, else the existing launch directory itself; without one the lookup fails closed.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass

from moraine.attention.project import ProjectResolver, place_within, normalize_abs

__all__ = ["QueryPath", "launch_project", "reduce_path"]


@dataclass(frozen=True, slots=True)
class QueryPath:
    """The tail to look up, whether it is absolute (nothing stripped), and the root that was stripped."""

    tail: str
    tail_is_absolute: bool
    stripped_root: str | None


def reduce_path(path: str, launch_dir: str | None, resolver: ProjectResolver) -> QueryPath:
    """Reduce a validated request path to the tail touches are stored under (``~/`` is the home directory)."""
    if path.startswith("~/"):
        path = os.path.expanduser("~") + path[1:]
    if posixpath.isabs(path):
        absolute = normalize_abs(path)
    elif launch_dir is not None and posixpath.isabs(launch_dir):
        absolute = normalize_abs(posixpath.join(launch_dir, path))
    else:
        relative = posixpath.normpath(path)
        return QueryPath(relative, False, None)
    boundary = resolver.git_boundary(posixpath.dirname(absolute))
    if boundary is not None:
        placed = place_within(absolute, boundary)
        if placed.root is not None:
            return QueryPath(placed.tail, False, placed.root)
    if launch_dir is not None and posixpath.isabs(launch_dir):
        root = normalize_abs(launch_dir)
        if absolute.startswith(root.rstrip("/") + "/"):
            return QueryPath(posixpath.relpath(absolute, root), False, root)
    return QueryPath(absolute, True, None)


def launch_project(launch_dir: str | None, resolver: ProjectResolver) -> str | None:
    """Return the launch project's identity, or None when it cannot be established."""
    if launch_dir is None or not posixpath.isabs(launch_dir):
        return None
    return resolver.project_of(launch_dir)
