"""file_attention: the path is a plain file path; optional range is real and ordered; limit defaults and caps."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from moraine.handler_api import Settings
from moraine.errors import RequestError
from moraine.server.canonical.base import Canonical, check_limit
from moraine.server.datetimes import parse_datetime

__all__ = ["DEFAULT_LIMIT", "canonicalize", "check_path"]

DEFAULT_LIMIT = 50  # the document: the default limit is min(50, mcp.max_results)


def check_path(path: str) -> str:
    """Return ``path`` when it names a file the way the document requires.

    Raises:
        RequestError: surrounding whitespace, a file:// URI, a trailing slash, or a NUL character.
    """
    if path != path.strip():
        raise RequestError("path must not have leading or trailing whitespace", field="path")
    if path.lower().startswith("file:"):
        raise RequestError("path must be a file path, not a file:// URI", field="path")
    if path.endswith(("/", "\\")):
        raise RequestError("path must name a file, not a directory (no trailing slash)", field="path")
    if "\0" in path:
        raise RequestError("path must not contain NUL characters", field="path")
    return path


def _bound(arguments: dict[str, Any], field: str) -> datetime | None:
    value = arguments[field]
    return None if value is None else parse_datetime(value, field)


def canonicalize(arguments: dict[str, Any], settings: Settings) -> Canonical:
    """Return the canonical file_attention request."""
    path = check_path(arguments["path"])
    start, end = _bound(arguments, "start_datetime"), _bound(arguments, "end_datetime")
    if start is not None and end is not None and end <= start:
        raise RequestError("end_datetime must be after start_datetime", field="end_datetime")
    limit = arguments["limit"]
    checked = check_limit(
        min(DEFAULT_LIMIT, settings.max_results) if limit is None else limit, settings.max_results
    )
    echo = {
        "path": path,
        "scope": arguments["scope"],
        "granularity": arguments["granularity"],
        "start_datetime": arguments["start_datetime"],
        "end_datetime": arguments["end_datetime"],
        "tool": arguments["tool"],
        "harness": arguments["harness"],
        "source": arguments["source"],
        "mutations_only": bool(arguments["mutations_only"]),
        "limit": checked,
    }
    return Canonical(echo, {"start_datetime": start, "end_datetime": end})
