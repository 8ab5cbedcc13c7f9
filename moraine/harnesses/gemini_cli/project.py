"""Which directory a Gemini CLI chat belongs to: ``~/.gemini/projects.json`` names the project folders.

Chats live under ``~/.gemini/tmp/<dir>/chats/``, where ``<dir>`` is the SHA-256 of the project's absolute path
(older versions) or the short name ``projects.json`` gives it (``{"projects": {"/abs/path": "name"}}``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

__all__ = ["project_root"]


def project_root(chat: Path) -> str | None:
    """Return the project directory of the chat file ``chat``, when ``projects.json`` names it."""
    parents = chat.parents
    if len(parents) < 4 or parents[0].name != "chats":
        return None
    folder, gemini = parents[1].name, parents[3]
    try:
        listed = json.loads((gemini / "projects.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    projects = listed.get("projects") if isinstance(listed, dict) else None
    if not isinstance(projects, dict):
        return None
    for root, name in projects.items():
        if not isinstance(root, str):
            continue
        if name == folder or hashlib.sha256(root.encode("utf-8")).hexdigest() == folder:
            return root
    return None
