"""A project-only server's hard floor: only sessions that originated under the launch project are visible.

The launch project is the launch directory's Git common directory (a main checkout and its linked worktrees are one
project), or the exact canonical directory without Git. A session belongs to it when ``sessions.project_id`` (set at
ingest from the session's working directory) is that identity; sessions without a project are never visible.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from typing import Any

from moraine.attention.project import ProjectResolver, normalize_abs
from moraine.errors import ConfigError
from moraine.projects.projects import shared_resolver
from moraine.store.client import Store
from moraine.store.reads.floor import project_condition, session_in_project

__all__ = ["ProjectFloor", "floor_condition", "in_floor", "resolve_floor"]


@dataclass(frozen=True, slots=True)
class ProjectFloor:
    """The visible project: its identity, the directory it was resolved from and how to describe it."""

    project_id: str
    launch_dir: str
    root: str  # the worktree root of a Git launch directory, else the launch directory itself
    git: bool

    def describe(self) -> str:
        """Return a sentence naming the roots whose sessions are visible (for the server's instructions)."""
        if self.git:
            return (
                f"This server is project-only: it shows only sessions that originated in the Git repository at "
                f"{self.root} (any of its checkouts and linked worktrees, which share one Git common directory). "
                "Sessions of every other project are invisible to every tool, whatever the arguments "
                "(file_attention scope=all included), and their IDs are not_found."
            )
        return (
            f"This server is project-only: it shows only sessions that originated exactly in {self.root} "
            "(not a Git repository, so neither its parent nor its subdirectories count). Sessions of every other "
            "directory are invisible to every tool, whatever the arguments (file_attention scope=all included), "
            "and their IDs are not_found."
        )


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


def floor_condition(
    store: Store, floor: ProjectFloor, column: str = "session_key"
) -> tuple[str, dict[str, Any]]:
    """Return a SQL condition (and its parameters) keeping rows whose ``column`` is a session inside the floor."""
    return project_condition(store, floor.project_id, column)


def in_floor(store: Store, floor: ProjectFloor | None, key: int) -> bool:
    """Return whether the session with this key is visible under ``floor`` (always, without a floor)."""
    if floor is None:
        return True
    return session_in_project(store, key, floor.project_id)
