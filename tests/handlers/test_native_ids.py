"""A harness's own session ID finds its session: open opens it, a search for exactly it returns its first events."""

from __future__ import annotations

from typing import Any

import pytest

from fixtures.handler_data import open_data, search_data
from fixtures.corpus.contract import assert_valid_data
from fixtures.corpus.small import Small
from moraine.errors import InvalidIdError
from moraine.ids import event_id, session_id
from moraine.store.client import Store
from moraine.store.reads.search import Bm25
from tests.fixtures.requests import open_request, search_request

SECRET = "test-secret"


def _open(store: Store, id: str, limit: int | None = None) -> Any:
    data = open_data(store, open_request(SECRET, id=id, limit=limit), cursor_secret=SECRET)
    assert_valid_data("open", data)
    return data


def _search(store: Store, query: str, notes: list[str], **filters: Any) -> Any:
    request = search_request(
        query=query, event_types=["user_input", "assistant_response"], n_hits=2, **filters
    )
    data = search_data(store, request, bm25=Bm25(), snippet_chars=120, notes=notes)
    assert_valid_data("search_sessions", data)
    return data


def test_open_with_a_harness_session_id_opens_that_session(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    by_native = _open(store, "ses-parser", limit=1)
    assert by_native == _open(store, session_id(small.parser), limit=1)
    assert by_native["session"]["native_id"] == "ses-parser"
    assert by_native["session"]["resume_command"] == "claude --resume ses-parser"


def test_an_unknown_harness_session_id_is_invalid(small_store: tuple[Store, Small]) -> None:
    store, _ = small_store
    with pytest.raises(InvalidIdError) as caught:
        _open(store, "ses-nowhere")
    assert caught.value.details == {"field": "id"}
    assert caught.value.message == "id is neither a Moraine ID nor the ID of a stored session in its harness"


def test_a_search_for_a_harness_session_id_returns_its_first_events_and_a_note(
    small_store: tuple[Store, Small],
) -> None:
    store, small = small_store
    notes: list[str] = []
    data = _search(store, "ses-migration", notes)
    assert [hit["id"] for hit in data["results"]] == [
        event_id(small.migration, 1),
        event_id(small.migration, 5),
    ]
    assert data["truncated"] is True and [hit["score"] for hit in data["results"]] == [1.0, 1.0]
    assert len(notes) == 1 and session_id(small.migration) in notes[0]


def test_a_filter_the_session_does_not_match_falls_back_to_an_ordinary_search(
    small_store: tuple[Store, Small],
) -> None:
    store, small = small_store
    notes: list[str] = []
    data = _search(store, "ses-migration", notes, harness="claude-code")
    assert notes == [] and all(hit["session"]["harness"] == "claude-code" for hit in data["results"])
