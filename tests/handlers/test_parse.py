"""Each tool's parse: every request rule gives its own error on its own field, the parsed values are typed, and the
echo (the envelope's canonical request) is derived from the same values."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from handlers.requests.open import Continuation, NativeSessionId
from moraine.errors import InvalidIdError, MoraineError, RequestError
from moraine.ids import EventId, SessionId, TurnId, event_id, session_id, turn_id
from moraine.store.reads.cursors import ListCursor, OpenCursor, encode_list_cursor, encode_open_cursor
from moraine.store.reads.listing import ListAnchor
from tests.fixtures.requests import attention_request, list_request, open_request, search_request

SECRET = b"p" * 32
UNSIGNED = "m1.e30." + "A" * 22  # a cursor of the published shape (empty payload, a MAC of zeros)
RANGE = {"start_datetime": "2026-04-30T09:00:00-04:00", "end_datetime": "2026-04-30T13:00:00-04:00"}


def _refused(make: Any, **arguments: Any) -> MoraineError:
    with pytest.raises(MoraineError) as caught:
        make(**arguments)
    return caught.value


def test_a_search_is_parsed_into_its_query_scope_and_types() -> None:
    parsed = search_request(
        query="  flaky tests on May 3, 2023 ",
        within_id=turn_id(7, 2),
        event_types=["tool_response", "user_input"],
    )
    assert parsed.within == TurnId(7, 2) and parsed.event_types == ("user_input", "tool_response")
    assert parsed.query.terms == ("flaky", "tests", "may", "3", "2023") and parsed.query.period is not None
    assert parsed.echo() == {
        "query": "flaky tests on May 3, 2023",
        "within_id": turn_id(7, 2),
        "event_types": ["user_input", "tool_response"],
        "harness": None,
        "source": None,
        "n_hits": 10,
    }
    assert search_request(query="q", within_id=session_id(9)).within == SessionId(9)


@pytest.mark.parametrize(
    ("arguments", "kind", "field", "message"),
    [
        ({"query": "?!"}, RequestError, "query", "query has no searchable terms"),
        (
            {"query": "q", "within_id": "session:0"},
            InvalidIdError,
            "within_id",
            "within_id is not a valid",
        ),
        (
            {"query": "q", "within_id": event_id(5, 2)},
            RequestError,
            "within_id",
            "within_id accepts session and",
        ),
    ],
)
def test_each_search_rule_names_its_field(
    arguments: dict[str, Any], kind: type[MoraineError], field: str, message: str
) -> None:
    error = _refused(search_request, **arguments)
    assert type(error) is kind and error.details["field"] == field and error.message.startswith(message)


def test_an_open_target_is_a_moraine_id_a_possible_native_id_or_a_verified_cursor() -> None:
    assert open_request(SECRET, id=event_id(3, 4)).target == EventId(3, 4)
    turn = open_request(SECRET, id=turn_id(3, 1), limit=4.0)
    assert (
        turn.target == TurnId(3, 1) and turn.limit == 4 and turn.echo() == {"id": turn_id(3, 1), "limit": 4}
    )
    native = open_request(SECRET, id="0196a4c2-7f3e-7b1a-9c1d-2e3f4a5b6c7d")
    assert native.target == NativeSessionId("0196a4c2-7f3e-7b1a-9c1d-2e3f4a5b6c7d") and native.limit is None
    assert native.echo() == {"id": "0196a4c2-7f3e-7b1a-9c1d-2e3f4a5b6c7d"}
    cursor = OpenCursor("turn", 3, 1, 2, 5, 9, 1)
    token = encode_open_cursor(SECRET, cursor)
    continued = open_request(SECRET, cursor=token)
    assert continued.target == Continuation(cursor, token) and continued.echo() == {"cursor": token}


@pytest.mark.parametrize(
    ("arguments", "kind", "field", "message"),
    [
        ({}, RequestError, "id", "open requires id"),
        ({"limit": 3}, RequestError, "limit", "limit requires a session or turn id"),
        ({"id": session_id(1), "cursor": UNSIGNED}, RequestError, "cursor", "pass either id or cursor"),
        ({"cursor": UNSIGNED, "limit": 3}, RequestError, "limit", "limit cannot be combined with cursor"),
        ({"id": event_id(1, 1), "limit": 3}, RequestError, "limit", "limit applies to session and turn IDs"),
        ({"id": session_id(1), "limit": 51}, RequestError, "limit", "limit must be an integer from 1 to 50"),
        ({"id": "session:ses_NOTBASE32!!"}, InvalidIdError, "id", "id is not a valid Moraine MCP ID"),
        ({"cursor": UNSIGNED}, RequestError, "cursor", "cursor failed verification"),
        ({"cursor": "not a cursor"}, RequestError, "cursor", "cursor is not a valid continuation cursor"),
    ],
)
def test_each_open_rule_names_its_field(
    arguments: dict[str, Any], kind: type[MoraineError], field: str, message: str
) -> None:
    error = _refused(open_request, secret=SECRET, **arguments)
    assert type(error) is kind and error.details["field"] == field and error.message.startswith(message)


def test_an_open_cursor_from_another_secret_or_tool_is_refused_in_the_parse() -> None:
    token = encode_open_cursor(b"other" * 8, OpenCursor("session", 3, 0, 2, 0, 9, 1))
    assert "failed verification" in _refused(open_request, secret=SECRET, cursor=token).message
    listing = encode_list_cursor(SECRET, ListCursor("[]", 1, 2))
    assert "belongs to list_sessions" in _refused(open_request, secret=SECRET, cursor=listing).message


def test_a_listing_is_parsed_into_datetimes_and_the_cursors_anchor() -> None:
    first = list_request(SECRET, **RANGE, limit=5, sort="asc", mode="chat")
    assert (
        first.start == datetime(2026, 4, 30, 13, tzinfo=UTC) and first.after is None and first.sort == "asc"
    )
    assert first.echo() == {**RANGE, "limit": 5, "cursor": None, "mode": "chat", "harness": None, "source": None,
                            "sort": "asc"}  # fmt: skip
    token = encode_list_cursor(SECRET, ListCursor(first.filter_sig, 1_777_000_000_000, 42))
    following = list_request(SECRET, **RANGE, limit=5, sort="asc", mode="chat", cursor=token)
    assert following.after == ListAnchor(1_777_000_000_000, 42) and following.echo()["cursor"] == token


@pytest.mark.parametrize(
    ("arguments", "field", "message"),
    [
        (
            {**RANGE, "start_datetime": "2026-02-30T00:00:00Z"},
            "start_datetime",
            "start_datetime is not a valid",
        ),
        ({**RANGE, "end_datetime": RANGE["start_datetime"]}, "end_datetime", "end_datetime must be after"),
        ({**RANGE, "limit": 51}, "limit", "limit must be an integer from 1 to 50"),
        ({**RANGE, "cursor": UNSIGNED}, "cursor", "cursor failed verification"),
    ],
)
def test_each_listing_rule_names_its_field(arguments: dict[str, Any], field: str, message: str) -> None:
    error = _refused(list_request, secret=SECRET, **arguments)
    assert (
        type(error) is RequestError and error.details["field"] == field and error.message.startswith(message)
    )


def test_a_listing_cursor_of_another_filter_is_refused_in_the_parse() -> None:
    first = list_request(SECRET, **RANGE, sort="desc")
    token = encode_list_cursor(SECRET, ListCursor(first.filter_sig, 1, 2))
    error = _refused(list_request, secret=SECRET, **RANGE, sort="asc", cursor=token)
    assert error.details["field"] == "cursor" and "does not match this list_sessions filter" in error.message


def test_a_file_attention_request_is_parsed_with_its_default_limit_and_open_range() -> None:
    parsed = attention_request(max_results=20, path="src/a.py", start_datetime="2026-01-01T00:00:00Z")
    assert (parsed.limit, parsed.scope, parsed.granularity) == (20, "project", "sessions")
    assert parsed.start == datetime(2026, 1, 1, tzinfo=UTC) and parsed.end is None
    assert parsed.echo()["start_datetime"] == "2026-01-01T00:00:00Z" and parsed.echo()["limit"] == 20


@pytest.mark.parametrize(
    ("arguments", "field", "message"),
    [
        ({"path": " a.py"}, "path", "path must not have leading or trailing whitespace"),
        ({"path": "file:///a.py"}, "path", "path must be a file path, not a file:// URI"),
        ({"path": "src/"}, "path", "path must name a file, not a directory"),
        ({"path": "a\0.py"}, "path", "path must not contain NUL characters"),
        (
            {"path": "a.py", "start_datetime": "2026-02-30T00:00:00Z"},
            "start_datetime",
            "start_datetime is not a",
        ),
        (
            {"path": "a.py", **RANGE, "end_datetime": RANGE["start_datetime"]},
            "end_datetime",
            "end_datetime must",
        ),
        ({"path": "a.py", "limit": 51}, "limit", "limit must be an integer from 1 to 50"),
    ],
)
def test_each_file_attention_rule_names_its_field(
    arguments: dict[str, Any], field: str, message: str
) -> None:
    error = _refused(attention_request, **arguments)
    assert (
        type(error) is RequestError and error.details["field"] == field and error.message.startswith(message)
    )
