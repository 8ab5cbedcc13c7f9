"""Read a Mistral Vibe session (``~/.vibe/logs/session/session_<date>_<time>_<id>/messages.jsonl``) line by line.

Vibe writes a session's messages one JSON object a line to ``messages.jsonl`` and its metadata beside them in
``meta.json`` (``session_id``, ``parent_session_id``, ``start_time``, ``title``, ``model`` or
``config.active_model``, ``working_dir`` or ``environment.working_directory``, ``stats``), which it rewrites. Each line
becomes ``{record: "vibe_message", session: {id, title, cwd, model, started, parent}, message}``; the metadata is
read as it is when the lines are read (the folder's name is the session id when there is none).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.fields import as_dict, as_str
from moraine.harnesses._shared.jsonl import JsonlReader
from moraine.harness_api.model import RawRecord
from moraine.harness_api.reader import ReadItem

__all__ = ["MESSAGE_RECORD", "VibeSessionReader"]

MESSAGE_RECORD = "vibe_message"


class VibeSessionReader:
    """JSONL lines of ``messages.jsonl``, each with the session's ``meta.json`` fields."""

    byte_offsets = True

    def __init__(self) -> None:
        self._lines = JsonlReader()

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the complete lines after byte ``offset``, each wrapped with the session's metadata."""
        session = _session(path.parent)
        for item in self._lines.read(path, offset, line_no):
            if item.record is None:
                yield item
                continue
            data = {"record": MESSAGE_RECORD, "session": session, "message": item.record.data}
            yield replace(item, record=RawRecord(data, item.record.line_no, item.record.offset))


def _session(folder: Path) -> dict[str, Any]:
    try:
        meta = as_dict(json.loads((folder / "meta.json").read_bytes()))
    except (OSError, ValueError):
        meta = {}
    return {
        "id": as_str(meta.get("session_id")) or folder.name,
        "title": as_str(meta.get("title")),
        "cwd": as_str(meta.get("working_dir"))
        or as_str(as_dict(meta.get("environment")).get("working_directory")),
        "model": as_str(meta.get("model")) or as_str(as_dict(meta.get("config")).get("active_model")),
        "started": meta.get("start_time"),
        "parent": as_str(meta.get("parent_session_id")),
    }
