"""A project-only server's floor (``moraine.projects.floor`` resolves it) and the statements behind it: only the
sessions of one project are visible."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from moraine.store.client import Store

__all__ = ["ProjectFloor", "in_floor", "project_condition"]


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


def project_condition(
    store: Store, project_id: str, column: str = "session_key"
) -> tuple[str, dict[str, Any]]:
    """Return a SQL condition (and its parameters) keeping rows whose ``column`` is a session of the project."""
    condition = (
        f"{column} IN (SELECT session_key FROM {store.table('sessions')} FINAL "
        "WHERE project_id = {floor_project:String})"
    )
    return condition, {"floor_project": project_id}


def in_floor(store: Store, floor: ProjectFloor | None, key: int) -> bool:
    """Return whether the session with this key is visible under ``floor`` (always, without a floor)."""
    if floor is None:
        return True
    rows = store.query(
        f"SELECT 1 FROM {store.table('sessions')} FINAL "
        "WHERE session_key = {key:UInt64} AND project_id = {floor_project:String} LIMIT 1",
        {"key": key, "floor_project": floor.project_id},
    )
    return bool(rows)
