"""The project a session originated under: its working directory's Git common directory, else the directory itself."""

from __future__ import annotations

import posixpath

from moraine.attention.project import ProjectResolver

__all__ = ["session_project", "shared_resolver"]

_resolver: ProjectResolver | None = None


def shared_resolver() -> ProjectResolver:
    """Return the process-wide resolver (its directory cache is shared by ingest and the floor)."""
    global _resolver
    if _resolver is None:
        _resolver = ProjectResolver()
    return _resolver


def session_project(cwd: str | None, resolver: ProjectResolver | None = None) -> str | None:
    """Return the project identity of a session's working directory, or None when it cannot be established."""
    if not cwd or not posixpath.isabs(cwd):
        return None
    return (resolver or shared_resolver()).project_of(cwd)
