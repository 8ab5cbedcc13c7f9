"""Read back what the harness tests stored: the sessions ``list_sessions`` lists for one harness."""

from __future__ import annotations

from typing import Any

from handlers.list_sessions import list_data
from moraine.store.client import Store

__all__ = ["SECRET", "harness_sessions"]

SECRET = "harness-tests-secret"


def harness_sessions(store: Store, harness: str) -> list[dict[str, Any]]:
    """Return the session objects ``list_sessions`` gives for ``harness`` over all time (newest first)."""
    listed = list_data(
        store,
        start_datetime="1970-01-02T00:00:00Z",
        end_datetime="2100-01-01T00:00:00Z",
        limit=100,
        cursor=None,
        mode=None,
        harness=harness,
        source=None,
        sort="desc",
        cursor_secret=SECRET,
    )
    return [row["session"] for row in listed["sessions"]]
