"""file_attention: the path is a plain file path; an optional range is real and ordered; the limit defaults to
min(50, the configured maximum) and stays within it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from handlers.requests.common import check_limit, optional_datetime, ordered
from moraine.errors import RequestError
from moraine.handler_api import Settings

__all__ = ["DEFAULT_LIMIT", "Granularity", "ParsedAttention", "Scope", "check_path", "parse"]

DEFAULT_LIMIT = 50  # the document: the default limit is min(50, mcp.max_results)
Scope = Literal["project", "all"]
Granularity = Literal["sessions", "events"]


@dataclass(frozen=True, slots=True)
class ParsedAttention:
    """A file_attention request: ``start``/``end`` bound the touches (None: open), ``*_text`` as sent (echoed)."""

    path: str
    scope: Scope
    granularity: Granularity
    start: datetime | None
    end: datetime | None
    start_text: str | None
    end_text: str | None
    tool: str | None
    harness: str | None
    source: str | None
    mutations_only: bool
    limit: int

    def echo(self) -> dict[str, Any]:
        """The canonical request (the envelope's ``request``): datetimes as sent."""
        return {
            "path": self.path,
            "scope": self.scope,
            "granularity": self.granularity,
            "start_datetime": self.start_text,
            "end_datetime": self.end_text,
            "tool": self.tool,
            "harness": self.harness,
            "source": self.source,
            "mutations_only": self.mutations_only,
            "limit": self.limit,
        }


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


def parse(arguments: dict[str, Any], settings: Settings) -> ParsedAttention:
    """Return the parsed file_attention request.

    Raises:
        RequestError: a path that names no file, an impossible datetime or empty range, a limit above the maximum.
    """
    path = check_path(arguments["path"])
    start = optional_datetime(arguments["start_datetime"], "start_datetime")
    end = optional_datetime(arguments["end_datetime"], "end_datetime")
    ordered(start, end)
    limit = arguments["limit"]
    return ParsedAttention(
        path=path,
        scope="all" if arguments["scope"] == "all" else "project",
        granularity="events" if arguments["granularity"] == "events" else "sessions",
        start=start,
        end=end,
        start_text=arguments["start_datetime"],
        end_text=arguments["end_datetime"],
        tool=arguments["tool"],
        harness=arguments["harness"],
        source=arguments["source"],
        mutations_only=bool(arguments["mutations_only"]),
        limit=check_limit(
            min(DEFAULT_LIMIT, settings.max_results) if limit is None else limit, settings.max_results
        ),
    )
