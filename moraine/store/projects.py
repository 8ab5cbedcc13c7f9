"""Sessions stored before ``project_id`` was recorded (``moraine.ingest.project_backfill`` gives them their project)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from moraine.store.client import Store

__all__ = ["sessions_without_project"]


def sessions_without_project(store: Store, columns: Sequence[str]) -> list[tuple[Any, ...]]:
    """Return the latest row (``columns``) of every session with a working directory but no project."""
    return [
        tuple(row)
        for row in store.query(
            f"SELECT {', '.join(columns)} FROM {store.table('sessions')} FINAL "
            "WHERE project_id IS NULL AND cwd IS NOT NULL"
        )
    ]
