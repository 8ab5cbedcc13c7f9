"""Give sessions stored before ``project_id`` was recorded their project, from their stored working directory.

Each such session's latest row is written again with the project set and a new version (ingest publishes later
versions itself, with the project computed the same way, so a concurrent ingest cannot be undone by this).
"""

from __future__ import annotations

import logging

from moraine.attention.project import ProjectResolver
from moraine.ingest.batch import SESSION_COLUMNS
from moraine.store.versions import next_version
from moraine.projects.projects import session_project
from moraine.store.client import Store
from moraine.store.projects import sessions_without_project

__all__ = ["backfill_projects"]

logger = logging.getLogger(__name__)
_PROJECT = SESSION_COLUMNS.index("project_id")
_CWD = SESSION_COLUMNS.index("cwd")
_VERSION = SESSION_COLUMNS.index("version")


def backfill_projects(store: Store, resolver: ProjectResolver | None = None) -> int:
    """Set the project of every session that has a working directory but no project; return how many were set."""
    rows = sessions_without_project(store, SESSION_COLUMNS)
    updated = []
    for row in rows:
        project = session_project(row[_CWD], resolver)
        if project is None:
            continue  # the directory is gone and was not in a Git repository: no provable project
        values = list(row)
        values[_PROJECT] = project
        values[_VERSION] = next_version()
        updated.append(values)
    if updated:
        store.insert("sessions", updated, SESSION_COLUMNS)
        logger.info(
            "recorded the project of %d session(s) indexed before projects were recorded", len(updated)
        )
    return len(updated)
