"""Read an OpenHands conversation (``~/.openhands/conversations/<id>/``) as one stream: its state, then its events.

OpenHands (the V1 CLI and SDK) writes each event of a conversation as its own JSON file under ``events/``, named
in order (``event-00000-<id>.json``), and keeps the conversation's state in ``base_state.json`` (``id``,
``agent.llm.model``, ``workspace``), which it rewrites as the conversation runs. The stream is ``base_state.json``:
position 0 is the conversation record ``{record: "openhands_conversation", conversation: {id, model, cwd}}``,
position ``i`` is the ``i``-th event file ``{record: "openhands_event", conversation, event}``. A pass lists the
event files and reads only those after the saved position.

An event file that is not a JSON object is reported and skipped, except the newest, which may still be being
written: it is reported once and the pass stops before it. New events are read when ``base_state.json`` changes
(OpenHands rewrites it as the conversation's status and statistics change, last when the agent stops).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.fields import as_dict, as_str
from moraine.harness_api.model import IngestError, RawRecord
from moraine.harness_api.reader import ReadItem
from moraine.harnesses._shared.once import ReportsOnce

__all__ = ["CONVERSATION_RECORD", "EVENT_RECORD", "OpenHandsConversationReader"]

CONVERSATION_RECORD = "openhands_conversation"
EVENT_RECORD = "openhands_event"


class OpenHandsConversationReader(ReportsOnce):
    """Yield a conversation's state record, then its event files, after the saved position."""

    byte_offsets = False

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the records after position ``offset`` (0 = nothing read yet) of the conversation of ``path``."""
        folder = path.parent
        conversation = _conversation(path, folder)
        if offset <= 0:
            line_no += 1
            record = RawRecord({"record": CONVERSATION_RECORD, "conversation": conversation}, line_no, 0)
            yield ReadItem(record, None, 0, line_no, 1, line_no)
        events = sorted((folder / "events").glob("*.json"))
        for position in range(max(offset, 1), len(events) + 1):
            file = events[position - 1]
            event, problem = _event(file)
            if problem is not None and position == len(events):
                token = (str(file), _signature(file))
                yield from self.once(token, IngestError("malformed_event", problem), position, line_no)
                return  # the newest event may still be being written: read it on a later pass
            line_no += 1
            if problem is not None:
                error = IngestError("malformed_event", f"{file.name}: {problem}")
                yield ReadItem(None, error, position, line_no, position + 1, line_no)
                continue
            data = {"record": EVENT_RECORD, "conversation": conversation, "event": event}
            yield ReadItem(RawRecord(data, line_no, position), None, position, line_no, position + 1, line_no)


def _signature(file: Path) -> tuple[int, int]:
    try:
        stat = file.stat()
    except OSError:
        return (0, 0)
    return (int(stat.st_mtime_ns), int(stat.st_size))


MAX_EVENT_BYTES = 64 * 1024 * 1024  # event files are small; anything larger is not an OpenHands event


def _event(file: Path) -> tuple[dict[str, Any], str | None]:
    try:
        if file.stat().st_size > MAX_EVENT_BYTES:
            return {}, f"event file larger than {MAX_EVENT_BYTES} bytes"
        event = json.loads(file.read_bytes())
    except (OSError, ValueError) as exc:
        return {}, f"not readable as JSON: {exc}"
    if not isinstance(event, dict):
        return {}, "not a JSON object"
    return event, None


# Where a workspace names its directory, in the order tried.
_CWD_KEYS = ("cwd", "path", "mount_path", "root", "repo_path", "repo_root", "working_dir")


def _conversation(path: Path, folder: Path) -> dict[str, Any]:
    """Return ``{id, model, cwd}`` from ``base_state.json`` (the folder's name, a dashless UUID, names it otherwise)."""
    try:
        state = as_dict(json.loads(path.read_bytes()))
    except (OSError, ValueError):
        state = {}
    workspace = as_dict(state.get("workspace"))
    return {
        "id": as_str(state.get("id")) or _dashed(folder.name),
        "model": as_str(as_dict(as_dict(state.get("agent")).get("llm")).get("model")),
        "cwd": next((as_str(workspace.get(key)) for key in _CWD_KEYS if as_str(workspace.get(key))), None),
    }


def _dashed(name: str) -> str:
    """Return a 32-digit hex folder name as the UUID it spells; any other name as it is."""
    if len(name) == 32 and all(c in "0123456789abcdefABCDEF" for c in name):
        return f"{name[:8]}-{name[8:12]}-{name[12:16]}-{name[16:20]}-{name[20:]}"
    return name
