"""A project-only server's hard floor: only sessions that originated under the launch project are visible.

The launch project is the launch directory's Git common directory (a main checkout and its linked worktrees are one
project), or the exact canonical directory without Git. A session belongs to it when ``sessions.project_id`` (set at
ingest from the session's working directory) is that identity; sessions without a project are never visible.
"""

from __future__ import annotations

import os
import posixpath

from moraine.attention.project import ProjectResolver, normalize_abs
from moraine.errors import ConfigError
from moraine.projects.projects import shared_resolver
from moraine.store.reads.floor import ProjectFloor

__all__ = ["resolve_floor"]


def resolve_floor(launch_dir: str, resolver: ProjectResolver | None = None) -> ProjectFloor:
    """Return the floor of a launch directory.

    Raises:
        ConfigError: the directory is not absolute or does not exist, so its project cannot be established.
    """
    if not posixpath.isabs(launch_dir):
        raise ConfigError(f"--project-only needs an absolute launch directory (got {launch_dir!r})")
    projects = resolver or shared_resolver()
    directory = normalize_abs(launch_dir)
    boundary = projects.git_boundary(directory)
    if boundary is not None:
        return ProjectFloor(boundary.project_id, directory, boundary.root, git=True)
    identity = projects.directory_identity(directory)
    if identity is None:
        raise ConfigError(
            f"--project-only: the launch directory {directory} does not exist, so its project cannot be established"
        )
    return ProjectFloor(identity, directory, os.path.realpath(directory), git=False)
