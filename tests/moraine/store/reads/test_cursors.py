"""Cursors: signed, bound to their tool, tamper-evident; list cursors bound to their filter."""

from __future__ import annotations

import pytest

from moraine.errors import RequestError
from moraine.store.reads.cursors import (
    ListCursor,
    OpenCursor,
    decode_list_cursor,
    decode_open_cursor,
    encode_list_cursor,
    encode_open_cursor,
)

SECRET = b"k" * 32
CURSOR = OpenCursor("turn", 2**63 + 7, 4, 7, 120, 2100, 3)


def test_open_cursor_round_trips() -> None:
    assert decode_open_cursor(SECRET, encode_open_cursor(SECRET, CURSOR)) == CURSOR


@pytest.mark.parametrize("position", [3, 10, 20, -5, -1])
def test_any_changed_character_is_rejected(position: int) -> None:
    token = encode_open_cursor(SECRET, CURSOR)
    changed = token[:position] + ("x" if token[position] != "x" else "y") + token[position + 1 :]
    if position == -1:
        changed = token[:-1] + ("x" if token[-1] != "x" else "y")
    with pytest.raises(RequestError) as caught:
        decode_open_cursor(SECRET, changed)
    assert caught.value.details == {"field": "cursor"} and "reopen" in caught.value.message


def test_cursor_signed_with_another_secret_is_rejected() -> None:
    with pytest.raises(RequestError):
        decode_open_cursor(SECRET, encode_open_cursor(b"other", CURSOR))


def test_list_and_open_cursors_are_not_interchangeable() -> None:
    listing = encode_list_cursor(SECRET, ListCursor("sig", 1000, 5))
    with pytest.raises(RequestError) as caught:
        decode_open_cursor(SECRET, listing)
    assert "list_sessions" in caught.value.message
    with pytest.raises(RequestError):
        decode_list_cursor(SECRET, encode_open_cursor(SECRET, CURSOR), "sig")


def test_list_cursor_is_bound_to_its_filter_signature() -> None:
    token = encode_list_cursor(SECRET, ListCursor("sig-a", 1000, 5))
    assert decode_list_cursor(SECRET, token, "sig-a") == ListCursor("sig-a", 1000, 5)
    with pytest.raises(RequestError) as caught:
        decode_list_cursor(SECRET, token, "sig-b")
    assert "filter" in caught.value.message


@pytest.mark.parametrize("token", ["", "m1", "m1.a.b", "m2.e30.AAAA", "x" * 5000, "m1.!!!.???"])
def test_malformed_tokens_are_invalid_request(token: str) -> None:
    with pytest.raises(RequestError) as caught:
        decode_open_cursor(SECRET, token)
    assert caught.value.code == "invalid_request"
