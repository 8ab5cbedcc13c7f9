"""MiMoCode and iCodeMate (OpenCode forks): message parts of their OpenCode-schema SQLite stores -> events.

Both keep OpenCode's ``session``/``message``/``part`` tables (read by ``moraine.harnesses.opencode.reader``), so
the OpenCode adapter reads them unchanged under their own harness values.
"""

from __future__ import annotations

from moraine.harnesses.opencode.adapter import OpenCodeAdapter

__all__ = ["ICodeMateAdapter", "MiMoCodeAdapter"]


class MiMoCodeAdapter(OpenCodeAdapter):
    """Normalize MiMoCode's message parts."""

    harness = "mimocode"


class ICodeMateAdapter(OpenCodeAdapter):
    """Normalize iCodeMate's message parts."""

    harness = "icodemate"
