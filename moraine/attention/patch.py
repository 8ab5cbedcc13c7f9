"""File paths named by Codex ``apply_patch`` bodies (``*** Update File:``, ``*** Add File:``, ``*** Delete File:``,
``*** Move to:``), wherever the body appears: a custom tool input, a JSON argument, or a shell here-document."""

from __future__ import annotations

import re

__all__ = ["patch_paths"]

_MARKER = re.compile(r"^\*\*\* (?:Update File|Add File|Delete File|Move to): *(.+?)\s*$", re.M)


def patch_paths(text: str) -> list[str]:
    """Return the paths a patch body names, in order, without duplicates."""
    if "*** " not in text:
        return []
    found: list[str] = []
    for match in _MARKER.finditer(text):
        path = match.group(1)
        if path and path not in found:
            found.append(path)
    return found
