"""A JSON sidecar beside a trace (its session's title, cwd, model), read again only when it changes.

``changed_sidecar`` remembers the sidecar's signature (modification time and size) in the stream state and returns
its parsed value the first time and after every change; ``None`` while it is absent or unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.memory import changed
from moraine.ingest.model import IngestError

__all__ = ["changed_sidecar"]


def changed_sidecar(path: Path, state: dict[str, Any], key: str) -> Any:
    """Return the sidecar's JSON value when new or changed, None otherwise, or an ``IngestError`` if unreadable."""
    try:
        stat = path.stat()
    except OSError:
        return None
    if not changed(state, key, [stat.st_mtime_ns, stat.st_size]):
        return None
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        return IngestError("malformed_sidecar", f"{path.name}: {exc}")
