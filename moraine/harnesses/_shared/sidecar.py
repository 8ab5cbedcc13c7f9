"""A small JSON file an agent keeps beside a transcript (title, directory, ids) and rewrites as it goes.

``fresh_sidecar`` reads it when it is new or changed since the stream last read it (its size and modification
time are remembered in the stream's checkpointed state), so an adapter may ask on every record for a stat's cost.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.memory import changed

__all__ = ["fresh_sidecar"]

_MAX_BYTES = 1024 * 1024


def fresh_sidecar(path: Path, state: dict[str, Any], key: str) -> dict[str, Any] | None:
    """Return the JSON object at ``path`` when it changed since the last call with ``key``, else None.

    A missing, oversized, unreadable or non-object file gives None (it is tried again once it changes).
    """
    try:
        stat = path.stat()
    except OSError:
        return None
    if stat.st_size > _MAX_BYTES or not changed(state, key, [stat.st_mtime_ns, stat.st_size]):
        return None
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
