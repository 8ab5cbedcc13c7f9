"""search_sessions: the query read once, within_id a session or turn ID, event types de-duplicated into canonical
order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generated.models import SearchableEventType
from moraine import ids
from moraine.errors import InvalidIdError, NotFoundError, RequestError
from moraine.handler_api import Settings
from moraine.ids import SessionId, TurnId
from moraine.terms.query import ParsedQuery, parse_query

__all__ = ["ParsedSearch", "parse"]


@dataclass(frozen=True, slots=True)
class ParsedSearch:
    """A search_sessions request: ``within`` the session or turn it is scoped to (None: everywhere)."""

    query: ParsedQuery
    within: SessionId | TurnId | None
    event_types: tuple[str, ...]
    harness: str | None
    source: str | None
    n_hits: int

    def echo(self) -> dict[str, Any]:
        """The canonical request (the envelope's ``request``)."""
        return {
            "query": self.query.text,
            "within_id": None if self.within is None else str(self.within),
            "event_types": list(self.event_types),
            "harness": self.harness,
            "source": self.source,
            "n_hits": self.n_hits,
        }


def _within(text: str | None) -> SessionId | TurnId | None:
    if text is None:
        return None
    try:
        parsed = ids.parse_id(text)
    except ids.InvalidIdError as exc:
        kind = ids.well_formed_kind(text)
        if kind is None:
            raise InvalidIdError("within_id is not a valid Moraine MCP ID", field="within_id") from exc
        if kind is not ids.IdKind.EVENT:  # well formed, but not an ID Moraine issues: it names nothing
            raise NotFoundError(f"{kind} not found", kind=str(kind), id=text) from exc
        raise _event_scope() from exc
    if isinstance(parsed, ids.EventId):
        raise _event_scope()
    return parsed


def _event_scope() -> RequestError:
    return RequestError("within_id accepts session and turn IDs, not event IDs", field="within_id")


def parse(arguments: dict[str, Any], settings: Settings) -> ParsedSearch:
    """Return the parsed search_sessions request.

    Raises:
        InvalidIdError: within_id is not a well-formed Moraine ID.
        NotFoundError: within_id is a well-formed session or turn ID that Moraine never issues.
        RequestError: within_id is an event ID, or the query has no searchable terms.
    """
    within = _within(arguments["within_id"])
    wanted = set(arguments["event_types"])
    return ParsedSearch(
        query=parse_query(arguments["query"]),
        within=within,
        event_types=tuple(t.value for t in SearchableEventType if t.value in wanted),
        harness=arguments["harness"],
        source=arguments["source"],
        n_hits=int(arguments["n_hits"]),
    )
