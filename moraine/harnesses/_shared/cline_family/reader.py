"""Read a Cline-family task folder (``tasks/<task id>/``) as one record per UI message.

The extension rewrites ``ui_messages.json`` (a JSON array of ``{ts, type: ask|say, ask, say, text, images,
partial, reasoning}``) as the task goes on; positions count messages. Each pass re-reads the array and yields the
messages after the saved position, stopping before one still streaming (``partial: true``) and, while the file is
being written (changed within ``settle_seconds``), before the API request still in flight (an ``api_req_started``
whose token counts are not written yet). Each record carries the task's metadata: its id (the folder name), Roo
Code's ``history_item.json`` and the model Cline's ``task_metadata.json`` names last. A file that is not a JSON
array of messages is reported once per version of the file.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from moraine.harness_api.model import IngestError, RawRecord
from moraine.harness_api.reader import ReadItem
from moraine.harnesses._shared.whole_file import Loaded, SettlingReader, load_whole

__all__ = ["MESSAGE_RECORD", "ClineTaskReader", "task_metadata"]

MESSAGE_RECORD = "cline_message"
MAX_FILE_BYTES = 512 * 1024 * 1024
MAX_SIDECAR_BYTES = 16 * 1024 * 1024
SETTLE_SECONDS = 30.0
# Usage fields the extension writes into an api_req_started payload once the request finished (or was cancelled).
_FINISHED_REQUEST = ("tokensIn", "tokensOut", "cost", "cancelReason")


class ClineTaskReader(SettlingReader):
    """Yield a task's settled UI messages after the saved position (see the module docstring)."""

    default_settle_seconds = SETTLE_SECONDS

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the settled messages after position ``offset`` (0 = nothing read yet)."""
        loaded = _load_messages(path)
        if loaded.problem is not None:
            token = (str(path), loaded.stat.st_mtime_ns if loaded.stat else None, loaded.problem)
            error = IngestError("malformed_session_file", loaded.problem)
            yield from self.once(token, error, offset, line_no)
            return
        if loaded.gone:
            return
        messages = loaded.value
        assert loaded.stat is not None
        active = not self.idle(loaded.stat)
        end = _settled_end(messages, active)
        self.hold(path, end < len(messages))
        task = task_metadata(path.parent)
        for position in range(max(offset, 0), end):
            line_no += 1
            data = {"record": MESSAGE_RECORD, "task": task, "index": position, "message": messages[position]}
            yield ReadItem(RawRecord(data, line_no, position), None, position, line_no, position + 1, line_no)


def _load_messages(path: Path) -> Loaded:
    """Return the message array of ``ui_messages.json``, or why this version of the file cannot be read."""
    loaded = load_whole(path, MAX_FILE_BYTES, lambda p: json.loads(p.read_bytes()), "JSON")
    if loaded.problem is None and not loaded.gone and not isinstance(loaded.value, list):
        return Loaded(stat=loaded.stat, problem="ui_messages.json is not a JSON array of messages")
    return loaded


def _settled_end(messages: list[Any], active: bool) -> int:
    """Return how many leading messages are complete (see the module docstring)."""
    end = next(
        (i for i, m in enumerate(messages) if isinstance(m, dict) and m.get("partial") is True), len(messages)
    )
    if not active:
        return end
    for index in range(end - 1, -1, -1):
        message = messages[index]
        if isinstance(message, dict) and message.get("say") == "api_req_started":
            payload = _json(message.get("text"))
            if not any(key in payload for key in _FINISHED_REQUEST):
                return index
            break
    return end


def task_metadata(folder: Path) -> dict[str, Any]:
    """Return what the task folder's metadata files say: id, Roo Code's history item, Cline's last model."""
    history = _sidecar(folder / "history_item.json")
    usage = _sidecar(folder / "task_metadata.json").get("model_usage")
    model = None
    if isinstance(usage, list) and usage and isinstance(usage[-1], dict):
        model = usage[-1].get("model_id")
    return {"id": folder.name, "history": history, "model": model if isinstance(model, str) else None}


def _sidecar(path: Path) -> dict[str, Any]:
    try:
        if path.stat().st_size > MAX_SIDECAR_BYTES:
            return {}
        value = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _json(text: Any) -> dict[str, Any]:
    if not isinstance(text, str) or not text.startswith("{"):
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
