"""The title Copilot CLI keeps beside a session: ``name:`` in ``workspace.yaml`` next to ``events.jsonl``.

The name is generated (or set by the user) after the session starts, so it is read again as the session goes on.
Only that one top-level line is read; the file is not parsed as YAML.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["workspace_name"]

_MAX_BYTES = 64 * 1024


def workspace_name(events: Path) -> str | None:
    """Return the session name in ``workspace.yaml`` beside ``events`` (an ``events.jsonl``), if any."""
    if events.name != "events.jsonl":
        return None
    try:
        with (events.parent / "workspace.yaml").open("r", encoding="utf-8", errors="replace") as handle:
            text = handle.read(_MAX_BYTES)
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("name:"):
            name = line.removeprefix("name:").strip().strip("'\"").strip()
            return name or None
    return None
