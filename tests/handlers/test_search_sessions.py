"""search_sessions data: scope rules, errors, hit shape and handles."""

from __future__ import annotations

from typing import Any

import pytest

from fixtures.handler_data import search_data
from fixtures.corpus.contract import assert_valid_data
from fixtures.corpus.small import Small
from moraine.errors import InvalidIdError, NotFoundError, RequestError
from moraine.ids import event_id, session_id, turn_id
from moraine.store.client import Store
from moraine.store.reads.search import Bm25
from tests.fixtures.requests import search_request

DEFAULT = ["user_input", "assistant_response"]


def call(store: Store, query: str, **kw: Any) -> dict[str, Any]:
    args: dict[str, Any] = {"event_types": DEFAULT, "n_hits": 10}
    args.update(kw)
    data = search_data(store, search_request(query=query, **args), bm25=Bm25(), snippet_chars=120)
    assert_valid_data("search_sessions", data)
    return data


def test_hits_carry_event_turn_session_and_open_handles(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    data = call(store, "ClickHouse schema migration failing")
    hit = data["results"][0]
    assert hit["rank"] == 1 and hit["id"] == hit["event"]["id"] == event_id(small.migration, 1)
    assert hit["event"] == {
        "id": event_id(small.migration, 1),
        "type": "user_input",
        "timestamp": "2026-04-29T18:01:00.000Z",
        "ordinal": 1,
        "terminal": False,
    }
    assert hit["turn"] == {
        "id": turn_id(small.migration, 1),
        "ordinal": 1,
        "completed": True,
        "event_count": 5,
    }
    assert hit["session"] == {
        "id": session_id(small.migration),
        "title": "Fix ClickHouse schema migration failure",
        "source": "codex",
        "harness": "codex",
        "started_at": "2026-04-29T18:01:00.000Z",
        "updated_at": "2026-04-29T18:06:00.000Z",
        "completed": True,
    }
    assert hit["open"] == {
        "event_id": event_id(small.migration, 1),
        "turn_id": turn_id(small.migration, 1),
        "session_id": session_id(small.migration),
    }
    assert data["result_count"] == len(data["results"]) and data["limit"] == 10


def test_session_scope_searches_only_that_session(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    data = call(store, "config", within_id=session_id(small.parser))
    assert data["results"] and {h["session"]["id"] for h in data["results"]} == {session_id(small.parser)}


def test_turn_scope_with_event_types_searches_only_that_turn_and_types(
    small_store: tuple[Store, Small],
) -> None:
    store, small = small_store
    data = call(store, "cargo test", within_id=turn_id(small.migration, 1), event_types=["tool_response"])
    assert [h["id"] for h in data["results"]] == [event_id(small.migration, 3)]


def test_existing_scope_without_matches_is_an_empty_success(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    data = call(store, "zebra", within_id=session_id(small.parser))
    assert data == {"result_count": 0, "limit": 10, "truncated": False, "results": []}


def test_unknown_well_formed_scopes_are_not_found_with_kind_and_id(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    for kind, unknown in (("session", session_id(12345)), ("turn", turn_id(small.parser, 99))):
        with pytest.raises(NotFoundError) as caught:
            call(store, "config", within_id=unknown)
        assert caught.value.details == {"kind": kind, "id": unknown}


def test_event_scope_is_invalid_request_and_malformed_scope_invalid_id(
    small_store: tuple[Store, Small],
) -> None:
    store, small = small_store
    with pytest.raises(RequestError) as caught:
        call(store, "config", within_id=event_id(small.parser, 1))
    assert caught.value.code == "invalid_request"
    assert caught.value.message == "within_id accepts session and turn IDs, not event IDs"
    with pytest.raises(InvalidIdError):
        call(store, "config", within_id="session:ses_nope")


def test_query_without_searchable_terms_is_invalid_request_on_query(small_store: tuple[Store, Small]) -> None:
    store, _ = small_store
    with pytest.raises(RequestError) as caught:
        call(store, "?!... ---")
    assert caught.value.code == "invalid_request" and caught.value.details == {"field": "query"}
    assert "no searchable terms" in caught.value.message


def test_snippet_is_a_window_around_the_match_not_the_opening(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    data = call(store, "migrations_apply_in_order", event_types=["tool_response"])
    snippet = data["results"][0]["snippet"]
    assert "migrations_apply_in_order" in snippet["text"]


def test_default_types_exclude_tool_and_reasoning_events(small_store: tuple[Store, Small]) -> None:
    store, _ = small_store
    data = call(store, "cargo test workspace locked")
    assert {h["event"]["type"] for h in data["results"]} <= {"user_input", "assistant_response"}
    explicit = call(store, "cargo test workspace locked", event_types=["tool_call", "tool_response"])
    assert {h["event"]["type"] for h in explicit["results"]} == {"tool_call", "tool_response"}
