"""iCodeMate (an OpenCode fork): message parts of its OpenCode-schema SQLite store -> events, read by the OpenCode
family's adapter (``moraine.harnesses._shared.opencode_format``) under its own harness value."""

from __future__ import annotations

from moraine.harnesses._shared.opencode_format.adapter import OpenCodeAdapter

__all__ = ["ICodeMateAdapter"]


class ICodeMateAdapter(OpenCodeAdapter):
    """Normalize iCodeMate's message parts."""

    harness = "icodemate"
