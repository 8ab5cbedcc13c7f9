"""list_sessions: a real datetime range (end after start), limit within the configured maximum."""

from __future__ import annotations

from typing import Any

from moraine.handler_api import Settings
from moraine.errors import RequestError
from moraine.server.canonical.base import Canonical, check_limit
from moraine.server.datetimes import parse_datetime

__all__ = ["canonicalize"]


def canonicalize(arguments: dict[str, Any], settings: Settings) -> Canonical:
    """Return the canonical list_sessions request (datetimes echoed as sent, parsed for the model)."""
    start = parse_datetime(arguments["start_datetime"], "start_datetime")
    end = parse_datetime(arguments["end_datetime"], "end_datetime")
    if end <= start:
        raise RequestError("end_datetime must be after start_datetime", field="end_datetime")
    limit = check_limit(int(arguments["limit"]), settings.max_results)
    echo = {
        "start_datetime": arguments["start_datetime"],
        "end_datetime": arguments["end_datetime"],
        "limit": limit,
        "cursor": arguments["cursor"],
        "mode": arguments["mode"],
        "harness": arguments["harness"],
        "source": arguments["source"],
        "sort": arguments["sort"],
    }
    return Canonical(echo, {"start_datetime": start, "end_datetime": end})
