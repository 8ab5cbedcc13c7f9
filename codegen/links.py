"""OpenAPI links of the HTTP facade: the traversal contract (search -> open -> open cursor) as runtime expressions.

Each link names a follow-up call whose body is built from the previous response, so generic HTTP clients and
stateful fuzzers (schemathesis) reuse real IDs and cursors instead of inventing them. Links apply only when both
tools exist in the spec being generated. ``x-schemathesis.merge_body: false`` makes the body exactly the link's.
"""

from __future__ import annotations

from typing import Any

__all__ = ["links_for"]

_EXACT = {"x-schemathesis": {"merge_body": False}}


def _body(target: str, description: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"operationId": target, "description": description, "requestBody": body, **_EXACT}


def _open(description: str, body: dict[str, Any]) -> dict[str, Any]:
    return _body("open", description, body)


_LINKS: dict[str, dict[str, dict[str, Any]]] = {
    "search_sessions": {
        "OpenHitEvent": _open(
            "Open the first hit's event.", {"id": "$response.body#/data/results/0/open/event_id"}
        ),
        "OpenHitTurn": _open(
            "Expand the first hit's turn.", {"id": "$response.body#/data/results/0/open/turn_id", "limit": 2}
        ),
        "OpenHitSession": _open(
            "Expand the first hit's session.",
            {"id": "$response.body#/data/results/0/open/session_id", "limit": 2},
        ),
        "SearchWithinHitSession": _body(
            "search_sessions",
            "Search again within the first hit's session.",
            {
                "query": "$response.body#/request/query",
                "within_id": "$response.body#/data/results/0/open/session_id",
            },
        ),
    },
    "list_sessions": {
        "OpenListedSession": _open(
            "Expand the first listed session.",
            {"id": "$response.body#/data/sessions/0/open/session_id", "limit": 3},
        ),
        "NextListPage": _body(
            "list_sessions",
            "Fetch the next page with the same filters.",
            {
                "start_datetime": "$response.body#/request/start_datetime",
                "end_datetime": "$response.body#/request/end_datetime",
                "limit": "$response.body#/request/limit",
                "mode": "$response.body#/request/mode",
                "harness": "$response.body#/request/harness",
                "source": "$response.body#/request/source",
                "sort": "$response.body#/request/sort",
                "cursor": "$response.body#/data/next_cursor",
            },
        ),
    },
    "open": {
        "NextPage": _open(
            "Continue an expanded session or turn.", {"cursor": "$response.body#/data/next_cursor"}
        ),
        "OpenFirstTurn": _open(
            "Expand a session's first turn.",
            {"id": "$response.body#/data/traversal/first_turn_id", "limit": 2},
        ),
        "OpenLastEvent": _open(
            "Open a turn's last event.", {"id": "$response.body#/data/traversal/last_event_id"}
        ),
        "OpenNextEvent": _open(
            "Open the next event.", {"id": "$response.body#/data/traversal/next_event_id"}
        ),
        "OpenParentTurn": _open("Open the parent turn.", {"id": "$response.body#/data/traversal/turn_id"}),
        "OpenParentSession": _open(
            "Open the parent session.", {"id": "$response.body#/data/traversal/session_id"}
        ),
        "OpenNextTurn": _open("Open the next turn.", {"id": "$response.body#/data/traversal/next_turn_id"}),
    },
    "file_attention": {
        "OpenTouchedSession": _open(
            "Open the first touching session.", {"id": "$response.body#/data/sessions/0/open/session_id"}
        ),
        "OpenTouchEvent": _open(
            "Open the first touch event.", {"id": "$response.body#/data/events/0/open/event_id"}
        ),
    },
}


def links_for(tool: str, tools: set[str]) -> dict[str, Any]:
    """Return ``{"links": ...}`` for ``tool``'s success response (empty when no link's tools all exist)."""
    links = {
        name: link
        for name, link in _LINKS.get(tool, {}).items()
        if tool in tools and link["operationId"] in tools
    }
    return {"links": links} if links else {}
