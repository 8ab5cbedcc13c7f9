"""MiMoCode (an OpenCode fork): message parts of its OpenCode-schema SQLite store -> events.

It keeps OpenCode's ``session``/``message``/``part`` tables (read by
``moraine.harnesses._shared.opencode_format.reader``), so the OpenCode family's adapter reads them unchanged under
its own harness value.
"""

from __future__ import annotations

from moraine.harnesses._shared.opencode_format.adapter import OpenCodeAdapter

__all__ = ["MiMoCodeAdapter"]


class MiMoCodeAdapter(OpenCodeAdapter):
    """Normalize MiMoCode's message parts."""

    harness = "mimocode"
