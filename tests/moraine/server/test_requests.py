"""Request checking and each tool's parse: defaults, trimming, event type order, integers, datetimes, open combos;
the canonical request echoed is the parsed request's echo."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from handlers import load_handlers
from handlers.requests.file_attention import ParsedAttention
from handlers.requests.list_sessions import ParsedListing
from handlers.requests.search_sessions import ParsedSearch
from moraine.errors import (
    InvalidIdError,
    MoraineError,
    NotFoundError,
    RequestError,
    UnsupportedEventTypeError,
)
from moraine.handler_api import Settings
from moraine.ids import SessionId, TurnId, event_id, session_id, turn_id
from moraine.server import requests
from moraine.server.requests import CheckedRequest

SETTINGS = Settings(max_results=50, cursor_secret=b"k" * 32)
UNSIGNED = "m1.e30." + "A" * 22  # a cursor of the published shape (empty payload, a MAC of zeros)
RANGE = {"start_datetime": "2026-04-30T09:00:00-04:00", "end_datetime": "2026-04-30T13:00:00-04:00"}
PARSES = {name: entry.parse for name, entry in load_handlers().items()}


def check_request(tool: str, arguments: Any, settings: Settings) -> CheckedRequest:
    """The server's check of ``tool``'s arguments with the tool's registered parse."""
    return requests.check_request(tool, arguments, PARSES[tool], settings)


def _error(tool: str, arguments: Any, settings: Settings = SETTINGS) -> MoraineError:
    with pytest.raises(MoraineError) as caught:
        check_request(tool, arguments, settings)
    return caught.value


def test_search_defaults_trim_and_event_type_order() -> None:
    checked = check_request(
        "search_sessions", {"query": "\t cargo test \n", "event_types": ["tool_response", "user_input", "tool_response"]},
        SETTINGS,
    )  # fmt: skip
    assert checked.canonical == {
        "query": "cargo test",
        "within_id": None,
        "event_types": ["user_input", "tool_response"],
        "harness": None,
        "source": None,
        "n_hits": 10,
    }
    assert isinstance(checked.parsed, ParsedSearch)
    assert checked.parsed.event_types == ("user_input", "tool_response")
    assert checked.parsed.query.text == "cargo test" and checked.parsed.query.terms == ("cargo", "test")


def test_search_null_fields_take_defaults_and_filters_are_kept_exactly() -> None:
    checked = check_request(
        "search_sessions",
        {
            "query": "q",
            "event_types": None,
            "n_hits": None,
            "harness": " codex",
            "source": "pi",
            "within_id": None,
        },
        SETTINGS,
    )
    assert checked.canonical["event_types"] == ["user_input", "assistant_response"]
    assert checked.canonical["n_hits"] == 10
    assert (checked.canonical["harness"], checked.canonical["source"]) == (" codex", "pi")


def test_integral_float_n_hits_is_accepted_as_an_integer() -> None:
    checked = check_request("search_sessions", {"query": "q", "n_hits": 7.0}, SETTINGS)
    assert checked.canonical["n_hits"] == 7 and type(checked.canonical["n_hits"]) is int


@pytest.mark.parametrize("n_hits", [93.0, 0, -1, 51, 2.5, "5", True, 1e308])
def test_bad_n_hits_is_invalid_request_naming_the_field(n_hits: Any) -> None:
    error = _error("search_sessions", {"query": "q", "n_hits": n_hits})
    assert type(error) is RequestError and error.details["field"] == "n_hits"


def test_within_id_accepts_session_and_turn_and_rejects_events() -> None:
    for good, parsed in ((session_id(5), SessionId(5)), (turn_id(5, 2), TurnId(5, 2))):
        checked = check_request("search_sessions", {"query": "q", "within_id": good}, SETTINGS)
        assert checked.canonical["within_id"] == good
        assert isinstance(checked.parsed, ParsedSearch) and checked.parsed.within == parsed
    error = _error("search_sessions", {"query": "q", "within_id": event_id(5, 2)})
    assert type(error) is RequestError
    assert error.message == "within_id accepts session and turn IDs, not event IDs"
    malformed = _error("search_sessions", {"query": "q", "within_id": "session:0"})
    assert type(malformed) is InvalidIdError and malformed.details["field"] == "within_id"
    never_issued = _error("search_sessions", {"query": "q", "within_id": "session:ses_0"})  # well formed
    assert type(never_issued) is NotFoundError and never_issued.details["id"] == "session:ses_0"


def test_unknown_event_type_is_unsupported_with_the_supported_list() -> None:
    error = _error("search_sessions", {"query": "q", "event_types": ["reasoning", "unknown"]})
    assert type(error) is UnsupportedEventTypeError
    assert error.message == "unsupported event type: unknown"
    assert "unknown" not in error.details["supported"] and len(error.details["supported"]) == 8


def test_arguments_that_are_not_an_object_are_rejected() -> None:
    for arguments in (None, [], "query", 3):
        assert type(_error("search_sessions", arguments)) is RequestError


def test_unknown_fields_are_named_for_every_tool() -> None:
    calls = {
        "search_sessions": {"query": "q"},
        "open": {"id": session_id(1)},
        "list_sessions": RANGE,
        "file_attention": {"path": "a.py"},
    }
    for tool, arguments in calls.items():
        error = _error(tool, {**arguments, "zzz": 1, "aaa": 2})
        assert type(error) is RequestError
        assert error.details["unknown_fields"] == ["aaa", "zzz"] and error.details["field"] == "aaa"


def test_list_sessions_parses_datetimes_and_echoes_them_as_sent() -> None:
    checked = check_request("list_sessions", {**RANGE, "limit": 5, "sort": "asc", "mode": "chat"}, SETTINGS)
    assert checked.canonical["start_datetime"] == RANGE["start_datetime"]
    assert checked.canonical["limit"] == 5 and checked.canonical["sort"] == "asc"
    assert isinstance(checked.parsed, ParsedListing)
    assert checked.parsed.start == datetime(2026, 4, 30, 13, 0, tzinfo=UTC)
    assert checked.parsed.end.utcoffset() == timedelta(hours=-4)


def test_list_sessions_accepts_nanosecond_fractions() -> None:
    checked = check_request(
        "list_sessions", {"start_datetime": "2026-04-30T09:00:00.123456789Z", "end_datetime": "2026-05-01T00:00:00Z"},
        SETTINGS,
    )  # fmt: skip
    assert isinstance(checked.parsed, ParsedListing)
    assert checked.parsed.start.microsecond == 123456


@pytest.mark.parametrize(
    "start",
    ["2026-02-30T00:00:00Z", "2026-04-30T24:00:00Z", "2026-04-30T09:00:00+25:00", "2026-04-30 09:00:00Z"],
)
def test_list_sessions_rejects_impossible_datetimes(start: str) -> None:
    error = _error("list_sessions", {"start_datetime": start, "end_datetime": "2027-01-01T00:00:00Z"})
    assert type(error) is RequestError and error.details["field"] == "start_datetime"


def test_limits_above_the_configured_maximum_are_rejected() -> None:
    small = Settings(max_results=10, cursor_secret=b"k" * 32)
    assert _error("list_sessions", {**RANGE, "limit": 11}, small).details["field"] == "limit"
    assert _error("open", {"id": session_id(1), "limit": 11}, small).details["field"] == "limit"
    assert _error("file_attention", {"path": "a.py", "limit": 11}, small).details["field"] == "limit"
    assert check_request("file_attention", {"path": "a.py"}, small).canonical["limit"] == 10


def test_file_attention_defaults_and_model() -> None:
    checked = check_request(
        "file_attention", {"path": "src/a.py", "start_datetime": "2026-01-01T00:00:00.123+01:00"}, SETTINGS
    )
    assert checked.canonical == {
        "path": "src/a.py",
        "scope": "project",
        "granularity": "sessions",
        "start_datetime": "2026-01-01T00:00:00.123+01:00",
        "end_datetime": None,
        "tool": None,
        "harness": None,
        "source": None,
        "mutations_only": False,
        "limit": 50,
    }
    assert isinstance(checked.parsed, ParsedAttention)
    assert checked.parsed.end is None
    assert checked.parsed.start == datetime(2026, 1, 1, 0, 0, 0, 123000, tzinfo=timezone(timedelta(hours=1)))


@pytest.mark.parametrize("path", ["a.py\n", "\ta.py", "FILE:///a.py", "src\\", "src/a\0.py", "/abs/dir/"])
def test_file_attention_rejects_paths_that_do_not_name_a_file(path: str) -> None:
    error = _error("file_attention", {"path": path})
    assert type(error) is RequestError and error.details["field"] == "path"


def test_file_attention_path_over_4096_characters_is_an_invalid_request_naming_the_limit() -> None:
    longest = "/" + "a" * 4095
    assert check_request("file_attention", {"path": longest}, SETTINGS).canonical["path"] == longest
    error = _error("file_attention", {"path": longest + "b"})
    assert type(error) is RequestError and error.code == "invalid_request"
    assert error.details["field"] == "path"
    assert "at most 4096 characters" in error.message


def test_open_keeps_only_given_keys() -> None:
    assert check_request("open", {"id": turn_id(3, 1), "limit": 4.0, "cursor": None}, SETTINGS).canonical == {
        "id": turn_id(3, 1),
        "limit": 4,
    }
    error = _error("open", {"cursor": "opaque"})
    assert type(error) is RequestError and error.details["field"] == "cursor"
    assert error.message.startswith("cursor is not a valid continuation cursor")


@pytest.mark.parametrize(
    ("arguments", "field", "kind"),
    [
        ({}, "id", RequestError),
        ({"id": None, "cursor": None}, "id", RequestError),
        ({"limit": 3}, "limit", RequestError),
        ({"id": session_id(1), "cursor": UNSIGNED}, "cursor", RequestError),
        ({"cursor": UNSIGNED, "limit": 3}, "limit", RequestError),
        ({"id": event_id(1, 1), "limit": 3}, "limit", RequestError),
        ({"id": ""}, "id", RequestError),
        ({"id": "session:ses_NOTBASE32!!"}, "id", InvalidIdError),
        ({"id": "session:01J9Q3N7W6F9A8K2M4V5R6T7Y8"}, "id", InvalidIdError),
    ],
)
def test_open_argument_combinations(arguments: dict[str, Any], field: str, kind: type[MoraineError]) -> None:
    error = _error("open", arguments)
    assert type(error) is kind and error.details["field"] == field


def test_every_published_argument_has_one_plain_type_and_null_is_still_accepted() -> None:
    from generated.descriptors import DESCRIPTORS
    from moraine.server.requests import arguments_conform

    for tool, descriptor in DESCRIPTORS.items():
        schema = descriptor["inputSchema"]
        for name, prop in schema["properties"].items():
            assert isinstance(prop.get("type"), str) and "anyOf" not in prop, (tool, name, prop)
        optional = {name: None for name in schema["properties"] if name not in schema.get("required", ())}
        required = {"search_sessions": {"query": "coupon"}, "file_attention": {"path": "src/cart.py"}}
        window = {"start_datetime": "2026-01-01T00:00:00Z", "end_datetime": "2026-02-01T00:00:00Z"}
        arguments = {**optional, **required.get(tool, {}), **(window if tool == "list_sessions" else {})}
        if tool == "open":
            arguments["id"] = session_id(1)
        assert arguments_conform(tool, arguments), tool
        check_request(tool, arguments, SETTINGS)
