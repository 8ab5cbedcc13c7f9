"""Small files an agent keeps beside a transcript (title, directory, model, ids) and rewrites as it goes.

A sidecar is read when it is new or changed since the stream last read it (its size and modification time are
remembered in the stream's checkpointed state), so an adapter may ask on every record for a stat's cost. Two
readings, for the two ways harnesses treat a broken sidecar: ``fresh_sidecar`` is quiet (a missing, oversized,
unreadable or non-object file gives None and is tried again once it changes), ``changed_sidecar`` returns any JSON
value and reports an unreadable file as an ``IngestError``. ``json_lines`` reads a JSON-lines sidecar whole.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.memory import changed
from moraine.harness_api.model import IngestError

__all__ = ["changed_sidecar", "fresh_sidecar", "json_lines"]

_MAX_BYTES = 1024 * 1024


def _changed(path: Path, state: dict[str, Any], key: str, max_bytes: int | None) -> bool:
    """Return whether the file at ``path`` exists (within ``max_bytes``) and changed since the last call with ``key``."""
    try:
        stat = path.stat()
    except OSError:
        return False
    if max_bytes is not None and stat.st_size > max_bytes:
        return False
    return changed(state, key, [stat.st_mtime_ns, stat.st_size])


def fresh_sidecar(path: Path, state: dict[str, Any], key: str) -> dict[str, Any] | None:
    """Return the JSON object at ``path`` when it changed since the last call with ``key``, else None."""
    if not _changed(path, state, key, _MAX_BYTES):
        return None
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def changed_sidecar(path: Path, state: dict[str, Any], key: str) -> Any:
    """Return the sidecar's JSON value when new or changed, None otherwise, or an ``IngestError`` if unreadable."""
    if not _changed(path, state, key, None):
        return None
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        return IngestError("malformed_sidecar", f"{path.name}: {exc}")


def json_lines(path: Path) -> list[Any]:
    """Return the values of a JSON-lines sidecar (none when it is absent).

    A line that is not JSON is kept as its text (for the adapter to report); an unterminated last line that is not
    JSON is still being written and is left for the next pass.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    lines = text.split("\n")
    out: list[Any] = []
    for number, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except ValueError:
            if number < len(lines) - 1:
                out.append(line)
    return out
