"""open: exactly one of id, id + limit, or cursor; the id well formed (or possibly a harness's own session ID);
limit only for sessions and turns."""

from __future__ import annotations

from typing import Any

from moraine.handler_api import Settings
from moraine import ids
from moraine.errors import InvalidIdError, RequestError
from moraine.server.canonical.base import Canonical, check_limit

__all__ = ["canonicalize"]


def canonicalize(arguments: dict[str, Any], settings: Settings) -> Canonical:
    """Return the canonical open request (only the keys given, nulls dropped)."""
    given = {key: value for key, value in arguments.items() if value is not None}
    id_, limit, cursor = given.get("id"), given.get("limit"), given.get("cursor")
    if cursor is not None and id_ is not None:
        raise RequestError("pass either id or cursor, not both", field="cursor")
    if cursor is not None and limit is not None:
        raise RequestError(
            "limit cannot be combined with cursor: the cursor carries its page size", field="limit"
        )
    if id_ is None and cursor is None:
        if limit is not None:
            raise RequestError("limit requires a session or turn id", field="limit")
        raise RequestError("open requires id (a session, turn or event ID) or cursor", field="id")
    if id_ is not None:
        parsed: ids.SessionId | ids.TurnId | ids.EventId | None = None
        try:
            parsed = ids.parse_id(id_)
        except ids.InvalidIdError as exc:
            if not ids.could_be_native_id(id_):  # else the handler looks it up as a harness's session ID
                raise InvalidIdError("id is not a valid Moraine MCP ID", field="id") from exc
        if isinstance(parsed, ids.EventId) and limit is not None:
            raise RequestError(
                "limit applies to session and turn IDs only; an event opens in full", field="limit"
            )
    checked = check_limit(limit, settings.max_results)
    echo: dict[str, Any] = {}
    if id_ is not None:
        echo["id"] = id_
    if checked is not None:
        echo["limit"] = checked
    if cursor is not None:
        echo["cursor"] = cursor
    return Canonical(echo)
