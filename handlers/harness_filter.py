"""The warning for a harness filter that names no installed harness: such a filter is well formed, so the call
answers (with whatever matches, usually nothing) and says why, instead of refusing it."""

from __future__ import annotations

from collections.abc import Set
from difflib import get_close_matches

__all__ = ["harness_warnings"]


def harness_warnings(harness: str | None, installed: Set[str]) -> list[str]:
    """Return the warning for ``harness`` when it is given and names none of ``installed`` (else nothing)."""
    if harness is None or not installed or harness in installed:
        return []
    near = get_close_matches(harness.lower(), sorted(installed), n=1, cutoff=0.75)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    return [
        f"harness {harness!r} names no installed harness, so it matches no session (names are exact and "
        f"case-sensitive; installed: {', '.join(sorted(installed))}){hint}"
    ]
