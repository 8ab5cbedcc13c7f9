"""The statements behind a project-only server's floor (``moraine.projects.floor``): sessions of one project."""

from __future__ import annotations

from typing import Any

from moraine.store.client import Store

__all__ = ["project_condition", "session_in_project"]


def project_condition(
    store: Store, project_id: str, column: str = "session_key"
) -> tuple[str, dict[str, Any]]:
    """Return a SQL condition (and its parameters) keeping rows whose ``column`` is a session of the project."""
    condition = (
        f"{column} IN (SELECT session_key FROM {store.table('sessions')} FINAL "
        "WHERE project_id = {floor_project:String})"
    )
    return condition, {"floor_project": project_id}


def session_in_project(store: Store, key: int, project_id: str) -> bool:
    """Return whether the session with this key belongs to the project."""
    rows = store.query(
        f"SELECT 1 FROM {store.table('sessions')} FINAL "
        "WHERE session_key = {key:UInt64} AND project_id = {floor_project:String} LIMIT 1",
        {"key": key, "floor_project": project_id},
    )
    return bool(rows)
