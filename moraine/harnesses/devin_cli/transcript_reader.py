"""Read a Devin CLI transcript (``~/.local/share/devin/cli/transcripts/<session id>.json``) by step position.

Devin CLI keeps each session's transcript as one JSON document ``{steps: [...], agent: {model_name},
working_directory | cwd | workspace_dirs, created_at, final_metrics}`` that it rewrites as the session goes on, and
the session list in ``../sessions.db`` (``sessions(id, title, working_directory, model, created_at,
last_activity_at, hidden)``). Records are the steps in order, each ``{record: "devin_step", session: {id, title,
cwd, model, started}, step}``: the session row, read read-only by the file's name, gives the title, directory,
model and start where it has them, the transcript the rest.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.fields import as_dict, as_list, as_str
from moraine.harnesses._shared.json_document import JsonDocumentReader, NotTheDocument
from moraine.harnesses._shared.sqlite import DatabaseBusy, open_read_only

__all__ = ["STEP_RECORD", "DevinTranscriptReader"]

STEP_RECORD = "devin_step"
_SESSION_ROW = "SELECT title, working_directory, model, created_at FROM sessions WHERE id = ?"


class DevinTranscriptReader(JsonDocumentReader):
    """One transcript -> one record per step, with the session's row."""

    def records(self, document: Any, path: Path) -> list[dict[str, Any]]:
        """Return the transcript's steps with the session they belong to (a document without steps is not one)."""
        if not isinstance(document, dict) or not isinstance(document.get("steps"), list):
            raise NotTheDocument("not a Devin transcript (no steps list)")
        title, cwd, model, created = _session_row(path.parent.parent / "sessions.db", path.stem)
        session = {
            "id": path.stem,
            "title": title,
            "cwd": cwd or _transcript_cwd(document),
            "model": as_str(as_dict(document.get("agent")).get("model_name")) or model,
            "started": created if created is not None else document.get("created_at"),
        }
        return [{"record": STEP_RECORD, "session": session, "step": step} for step in document["steps"]]


def _session_row(database: Path, session: str) -> tuple[Any, ...]:
    """Return ``(title, working directory, model, created_at)`` of the session's row, Nones when not readable."""
    if not database.is_file():
        return (None, None, None, None)
    try:
        with open_read_only(database) as connection:
            row = connection.execute(_SESSION_ROW, (session,)).fetchone()
    except (sqlite3.Error, DatabaseBusy):
        return (None, None, None, None)
    return tuple(row) if row else (None, None, None, None)


def _transcript_cwd(document: dict[str, Any]) -> str | None:
    agent = as_dict(document.get("agent"))
    for value in (document.get("working_directory"), document.get("cwd"), agent.get("working_directory")):
        if as_str(value):
            return str(value)
    first = next(iter(as_list(document.get("workspace_dirs"))), None)
    if isinstance(first, str):
        return first or None
    return as_str(as_dict(first).get("root_path")) or as_str(as_dict(first).get("path"))
