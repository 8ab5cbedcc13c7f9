"""open: exactly one of id, id + limit, or cursor; the id well formed (or possibly a harness's own session ID);
limit only for sessions and turns, within the configured maximum; a cursor verified and decoded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from handlers.requests.common import check_limit
from moraine import ids
from moraine.errors import InvalidIdError, NotFoundError, RequestError
from moraine.handler_api import Settings
from moraine.ids import EventId, SessionId, TurnId
from moraine.store.reads.cursors import OpenCursor, decode_open_cursor

__all__ = ["Continuation", "NativeSessionId", "ParsedOpen", "parse"]


@dataclass(frozen=True, slots=True)
class NativeSessionId:
    """An id that is no Moraine ID but could be a harness's own session ID (what ``claude --resume`` takes)."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Continuation:
    """A verified ``open`` cursor (``token`` as the caller sent it); whether it is stale needs the store."""

    cursor: OpenCursor
    token: str


@dataclass(frozen=True, slots=True)
class ParsedOpen:
    """An open request: what to open, and with a session or turn ID the page size of its first page (or None)."""

    target: SessionId | TurnId | EventId | NativeSessionId | Continuation
    limit: int | None = None

    def echo(self) -> dict[str, Any]:
        """The canonical request (the envelope's ``request``): only the keys given."""
        if isinstance(self.target, Continuation):
            return {"cursor": self.target.token}
        echo: dict[str, Any] = {"id": str(self.target)}
        if self.limit is not None:
            echo["limit"] = self.limit
        return echo


def _target(text: str) -> SessionId | TurnId | EventId | NativeSessionId:
    try:
        return ids.parse_id(text)
    except ids.InvalidIdError as exc:
        kind = ids.well_formed_kind(text)
        if kind is not None:  # well formed, but not an ID Moraine issues: it names nothing
            raise NotFoundError(f"{kind} not found", kind=str(kind), id=text) from exc
        if ids.could_be_native_id(text):  # the handler looks it up as a harness's session ID
            return NativeSessionId(text)
        raise InvalidIdError("id is not a valid Moraine MCP ID", field="id") from exc


def parse(arguments: dict[str, Any], settings: Settings) -> ParsedOpen:
    """Return the parsed open request.

    Raises:
        RequestError: a bad combination of id, limit and cursor, a limit above the maximum or with an event ID, or
            a cursor that is malformed, altered or not an open cursor.
        InvalidIdError: the id is neither a Moraine ID nor possibly a harness's own session ID.
        NotFoundError: the id is well formed but not one Moraine issues (another length or alphabet).
    """
    given = {key: value for key, value in arguments.items() if value is not None}
    text, limit, token = given.get("id"), given.get("limit"), given.get("cursor")
    if token is not None and text is not None:
        raise RequestError("pass either id or cursor, not both", field="cursor")
    if token is not None and limit is not None:
        raise RequestError(
            "limit cannot be combined with cursor: the cursor carries its page size", field="limit"
        )
    if token is not None:
        return ParsedOpen(Continuation(decode_open_cursor(settings.cursor_secret, token), token))
    if text is None:
        if limit is not None:
            raise RequestError("limit requires a session or turn id", field="limit")
        raise RequestError("open requires id (a session, turn or event ID) or cursor", field="id")
    target = _target(text)
    if isinstance(target, EventId) and limit is not None:
        raise RequestError(
            "limit applies to session and turn IDs only; an event opens in full", field="limit"
        )
    return ParsedOpen(target, None if limit is None else check_limit(limit, settings.max_results))
