"""open data: sessions, turns and events, traversal, paging and cursor errors."""

from __future__ import annotations

from typing import Any

import pytest

from fixtures.handler_data import list_data, open_data
from fixtures.corpus.builder import Corpus, Ev, Sess, at
from fixtures.corpus.contract import assert_valid_data
from fixtures.corpus.small import ENCRYPTED, Small
from moraine.errors import InvalidIdError, NotFoundError, RequestError
from moraine.ids import event_id, session_id, turn_id
from moraine.store.client import Store
from tests.fixtures.requests import list_request, open_request

SECRET = "test-secret"


def call(store: Store, id: str | None = None, limit: int | None = None, cursor: str | None = None) -> Any:
    data = open_data(store, open_request(SECRET, id=id, limit=limit, cursor=cursor), cursor_secret=SECRET)
    assert_valid_data("open", data)
    return data


def test_id_only_session_open_is_summary_only_with_traversal(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    data = call(store, session_id(small.migration))
    assert data["kind"] == "session" and data["turns"] == [] and data["next_cursor"] is None
    assert data["session"]["title"] == "Fix ClickHouse schema migration failure"
    assert (data["session"]["turn_count"], data["session"]["event_count"], data["session"]["completed"]) == (
        2,
        8,
        True,
    )
    assert data["traversal"] == {
        "previous_session_id": None,
        "next_session_id": None,
        "first_turn_id": turn_id(small.migration, 1),
        "last_turn_id": turn_id(small.migration, 2),
    }


def test_session_with_limit_returns_turn_summaries_in_order(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    data = call(store, session_id(small.migration), limit=1)
    [turn] = data["turns"]
    assert turn["id"] == turn_id(small.migration, 1) and turn["ordinal"] == 1
    assert turn["terminal_event_id"] == event_id(small.migration, 5)
    assert turn["tools_called"] == ["exec_command"]
    assert turn["event_types"] == [
        "user_input",
        "tool_call",
        "tool_response",
        "reasoning",
        "assistant_response",
    ]
    assert turn["user_input"]["event_id"] == event_id(small.migration, 1)
    assert turn["final_response"]["event_id"] == event_id(small.migration, 5)
    second = call(store, cursor=data["next_cursor"])
    assert [t["ordinal"] for t in second["turns"]] == [2] and second["next_cursor"] is None


def test_a_turn_cut_short_and_left_idle_ends_on_its_last_event_without_a_final_response(
    small_store: tuple[Store, Small],
) -> None:
    # Its last event is a tool call nothing answered, written long ago: nobody is working in it (issue 44, the
    # 30-minute rule for every harness), and no answer is invented for it. A turn written to moments ago is in
    # progress: tests/moraine/store/reads/test_settled.py.
    store, small = small_store
    data = call(store, turn_id(small.parser, 2))
    assert data["turn"]["completed"] is True
    assert data["turn"]["terminal_event_id"] == event_id(small.parser, 4)
    assert data["summary"]["final_response"] is None
    assert data["summary"]["user_input"]["text"] == "Explain how the config parser handles includes"
    assert data["summary"]["tools_called"] == ["Bash"]
    assert data["session"] == {
        "id": session_id(small.parser),
        "title": "Where is parse_config_file defined?",  # no harness title: its first prompt
        "source": "claude",
        "harness": "claude-code",
    }
    assert data["traversal"] == {
        "session_id": session_id(small.parser),
        "previous_turn_id": turn_id(small.parser, 1),
        "next_turn_id": None,
        "first_event_id": event_id(small.parser, 3),
        "last_event_id": event_id(small.parser, 4),
    }
    assert data["events"] == [] and data["next_cursor"] is None


def test_turn_with_limit_lists_compact_event_summaries(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    data = call(store, turn_id(small.migration, 1), limit=50)
    assert [e["ordinal"] for e in data["events"]] == [1, 2, 3, 4, 5]
    reasoning = data["events"][3]
    assert reasoning["summary"] == "[encrypted reasoning omitted]" and ENCRYPTED not in str(data)
    assert data["events"][2]["tool_name"] == "exec_command" and data["events"][4]["terminal"] is True
    assert data["traversal"]["previous_turn_id"] is None
    assert data["traversal"]["next_turn_id"] == turn_id(small.migration, 2)


def test_event_open_returns_full_content_and_neighbours(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    first = call(store, event_id(small.migration, 1))
    assert first["content"]["format"] == "text" and first["content"]["truncated"] is False
    assert first["content"]["text"].startswith("The ClickHouse schema migration is failing")
    assert first["traversal"] == {
        "session_id": session_id(small.migration),
        "turn_id": turn_id(small.migration, 1),
        "previous_event_id": None,
        "next_event_id": event_id(small.migration, 2),
        "previous_turn_id": None,
        "next_turn_id": turn_id(small.migration, 2),
    }
    call_event = call(store, event_id(small.migration, 2))
    assert call_event["content"]["format"] == "tool_call"
    assert call_event["content"]["arguments"] == {
        "cmd": "cargo test --workspace --locked",
        "workdir": "/src/moraine",
    }
    assert "cargo test --workspace --locked" in call_event["content"]["text"]
    assert (
        call_event["event"]["originating_model"] == "gpt-5"
        and call_event["event"]["tool_name"] == "exec_command"
    )
    response = call(store, event_id(small.migration, 3))
    assert response["content"]["exit_code"] == 101 and response["content"]["tool_name"] == "exec_command"
    assert "migrations_apply_in_order" in response["content"]["text"]
    reasoning = call(store, event_id(small.migration, 4))
    assert reasoning["content"]["text"] == ENCRYPTED and reasoning["content"]["format"] == "reasoning"
    last = call(store, event_id(small.migration, 5))
    assert last["traversal"]["next_event_id"] is None and last["event"]["terminal"] is True
    final = call(store, event_id(small.migration, 8))
    assert final["traversal"]["next_turn_id"] is None
    assert final["traversal"]["previous_turn_id"] == turn_id(small.migration, 1)
    assert final["turn"] == {"id": turn_id(small.migration, 2), "ordinal": 2, "completed": True}


def test_missing_objects_are_not_found_and_bad_ids_invalid(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    for unknown in (session_id(42), turn_id(small.migration, 9), event_id(small.migration, 999)):
        with pytest.raises(NotFoundError):
            call(store, unknown)
    with pytest.raises(InvalidIdError):
        call(store, "not-a-valid-id")


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 51}, "limit"),
        ({}, "id"),
    ],
)
def test_bad_limits_and_missing_id_are_invalid_request(
    small_store: tuple[Store, Small], kwargs: dict[str, Any], field: str
) -> None:
    store, small = small_store
    target = None if field == "id" else session_id(small.migration)
    with pytest.raises(RequestError) as caught:
        call(store, target, **kwargs)
    assert caught.value.code == "invalid_request" and caught.value.details["field"] == field


def test_limit_with_event_id_and_cursor_with_id_are_invalid_request(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    with pytest.raises(RequestError) as caught:
        call(store, event_id(small.migration, 1), limit=5)
    assert caught.value.code == "invalid_request"
    cursor = call(store, session_id(small.migration), limit=1)["next_cursor"]
    with pytest.raises(RequestError):
        call(store, session_id(small.migration), cursor=cursor)
    with pytest.raises(RequestError):
        call(store, limit=2, cursor=cursor)


def _flip(token: str, index: int) -> str:
    char = token[index]
    return token[:index] + ("A" if char != "A" else "B") + token[index + 1 :]


def test_tampered_malformed_and_wrong_kind_cursors_ask_to_reopen(small_store: tuple[Store, Small]) -> None:
    store, small = small_store
    cursor = call(store, turn_id(small.migration, 1), limit=2)["next_cursor"]
    listing = list_data(
        store,
        list_request(
            SECRET,
            start_datetime="2026-01-01T00:00:00Z",
            end_datetime="2027-01-01T00:00:00Z",
            limit=1,
            sort="desc",
        ),
        cursor_secret=SECRET,
    )
    bad = [
        _flip(cursor, 5),
        _flip(cursor, len(cursor) - 3),
        cursor[:-4],
        "garbage",
        "m1..",
        listing["next_cursor"],
    ]
    for token in bad:
        with pytest.raises(RequestError) as caught:
            call(store, cursor=token)
        assert caught.value.code == "invalid_request" and caught.value.details == {"field": "cursor"}
        assert "reopen" in caught.value.message
    other_secret = open_data(store, open_request("another", id=turn_id(small.migration, 1), limit=2), cursor_secret="another")["next_cursor"]  # fmt: skip
    with pytest.raises(RequestError):
        call(store, cursor=other_secret)


def test_cursor_goes_stale_when_the_session_is_rewritten(store: Store) -> None:
    corpus = Corpus(store)
    key = corpus.add(Sess("s-stale", turns=[[Ev("user_input", f"q{i}", at(i))] for i in range(4)]))
    cursor = call(store, session_id(key), limit=2)["next_cursor"]
    corpus.bump_generation("s-stale")
    with pytest.raises(RequestError) as caught:
        call(store, cursor=cursor)
    assert caught.value.details == {"field": "cursor"} and "stale" in caught.value.message
    assert "reopen" in caught.value.message
