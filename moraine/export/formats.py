"""The export formats and their media types (kept apart from the renderers so the CLI can list them cheaply)."""

from __future__ import annotations

__all__ = ["FORMATS", "MEDIA_TYPES"]

MEDIA_TYPES = {"html": "text/html; charset=utf-8", "md": "text/markdown; charset=utf-8"}
FORMATS = tuple(sorted(MEDIA_TYPES))
