"""search_sessions: trim the query, check within_id, de-duplicate event_types into canonical order."""

from __future__ import annotations

from typing import Any

from generated.models import SearchableEventType
from moraine.handler_api import Settings
from moraine import ids
from moraine.errors import InvalidIdError, RequestError
from moraine.server.canonical.base import Canonical

__all__ = ["canonicalize"]


def _within_id(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        parsed = ids.parse_id(value)
    except ids.InvalidIdError as exc:
        raise InvalidIdError("within_id is not a valid Moraine MCP ID", field="within_id") from exc
    if isinstance(parsed, ids.EventId):
        raise RequestError("within_id accepts session and turn IDs, not event IDs", field="within_id")
    return value


def canonicalize(arguments: dict[str, Any], settings: Settings) -> Canonical:
    """Return the canonical search_sessions request."""
    wanted = set(arguments["event_types"])
    return Canonical(
        {
            "query": arguments["query"].strip(),
            "within_id": _within_id(arguments["within_id"]),
            "event_types": [t.value for t in SearchableEventType if t.value in wanted],
            "harness": arguments["harness"],
            "source": arguments["source"],
            "n_hits": int(arguments["n_hits"]),
        }
    )
