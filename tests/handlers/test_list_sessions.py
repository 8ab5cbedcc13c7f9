"""list_sessions data: range boundaries, filters, sort, keyset cursors and display labels."""

from __future__ import annotations

from typing import Any

import pytest

from fixtures.handler_data import list_data
from fixtures.corpus.builder import Corpus, Ev, Sess, at
from fixtures.corpus.contract import assert_valid_data
from moraine.errors import RequestError
from moraine.ids import session_id
from moraine.store.client import Store
from tests.fixtures.requests import list_request

SECRET = "test-secret"
WIDE = ("2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z")


def call(store: Store, start: str = WIDE[0], end: str = WIDE[1], **kw: Any) -> Any:
    args: dict[str, Any] = {"limit": 20, "sort": "desc"}
    args.update(kw)
    request = list_request(SECRET, start_datetime=start, end_datetime=end, **args)
    data = list_data(store, request, cursor_secret=SECRET)
    assert_valid_data("list_sessions", data)
    return data


@pytest.fixture
def sessions(store: Store) -> dict[str, int]:
    """Five sessions: s1 spans 18:10-18:20; s2 and s3 share updated_at 18:30; s4 is claude-code; s5 is late."""
    corpus = Corpus(store)
    keys = {
        "s1": corpus.add(Sess("s1", title="First", mode="chat",
                              turns=[[Ev("user_input", "a", at(10)), Ev("assistant_response", "b", at(20))]])),
        "s2": corpus.add(Sess("s2", mode="tool_calling", turns=[[Ev("user_input", "c", at(25)),
                                                                 Ev("assistant_response", "d", at(30))]])),
        "s3": corpus.add(Sess("s3", mode="tool_calling", turns=[[Ev("user_input", "e", at(30))]])),
        "s4": corpus.add(Sess("s4", source="claude", harness="claude-code", mode="chat",
                              turns=[[Ev("user_input", "f", at(40))]])),
        "s5": corpus.add(Sess("s5", turns=[[Ev("user_input", "g", at(90))]])),
    }  # fmt: skip
    return keys


def ids(data: Any) -> list[str]:
    return [row["id"] for row in data["sessions"]]


def test_sorted_desc_by_updated_at_then_id_and_asc_reverses(store: Store, sessions: dict[str, int]) -> None:
    tied = sorted([session_id(sessions["s2"]), session_id(sessions["s3"])], reverse=True)
    desc = ids(call(store))
    assert desc == [session_id(sessions["s5"]), session_id(sessions["s4"]), *tied, session_id(sessions["s1"])]
    assert ids(call(store, sort="asc")) == list(reversed(desc))


def test_start_is_inclusive_and_end_exclusive(store: Store, sessions: dict[str, int]) -> None:
    # s1 is updated exactly at 18:20 (start, inclusive); s5 starts exactly at 19:30 (end, exclusive).
    data = call(store, "2026-04-29T18:20:00.000Z", "2026-04-29T19:30:00Z")
    assert session_id(sessions["s1"]) in ids(data)
    assert session_id(sessions["s5"]) not in ids(data)
    later = call(store, "2026-04-29T18:20:00.001Z", "2026-04-29T19:30:00.001Z")
    assert session_id(sessions["s1"]) not in ids(later) and session_id(sessions["s5"]) in ids(later)


def test_offsets_are_honoured(store: Store, sessions: dict[str, int]) -> None:
    data = call(store, "2026-04-29T14:20:00-04:00", "2026-04-29T14:35:00-04:00")
    assert set(ids(data)) == {session_id(sessions[k]) for k in ("s1", "s2", "s3")}


def test_mode_harness_and_source_filters_are_exact_and_anded(store: Store, sessions: dict[str, int]) -> None:
    assert set(ids(call(store, mode="tool_calling"))) == {
        session_id(sessions["s2"]),
        session_id(sessions["s3"]),
    }
    assert ids(call(store, harness="claude-code")) == [session_id(sessions["s4"])]
    assert ids(call(store, source="claude", harness="claude-code")) == [session_id(sessions["s4"])]
    assert ids(call(store, source="claude", harness="codex")) == []
    assert all(row["session"]["harness"] == "codex" for row in call(store, harness="codex")["sessions"])


def test_cursor_pages_visit_every_session_once(store: Store, sessions: dict[str, int]) -> None:
    for sort in ("desc", "asc"):
        seen: list[str] = []
        data = call(store, limit=2, sort=sort)
        while True:
            seen.extend(ids(data))
            assert data["result_count"] <= 2
            if data["next_cursor"] is None:
                assert data["truncated"] is False
                break
            assert data["truncated"] is True
            data = call(store, limit=2, sort=sort, cursor=data["next_cursor"])
        assert seen == ids(call(store, sort=sort))


def test_cursor_reused_with_another_filter_or_sort_is_invalid_request(
    store: Store, sessions: dict[str, int]
) -> None:
    cursor = call(store, limit=1)["next_cursor"]
    for changed in ({"sort": "asc"}, {"harness": "codex"}, {"mode": "chat"}, {"source": "codex"}):
        with pytest.raises(RequestError) as caught:
            call(store, limit=1, cursor=cursor, **changed)
        assert caught.value.details == {"field": "cursor"}
    with pytest.raises(RequestError):
        call(store, "2026-01-02T00:00:00Z", limit=1, cursor=cursor)
    with pytest.raises(RequestError):
        call(store, limit=1, cursor=cursor[:-2])


def test_rows_are_compact_metadata_with_display_labels(store: Store, sessions: dict[str, int]) -> None:
    rows = {row["id"]: row for row in call(store)["sessions"]}
    first = rows[session_id(sessions["s1"])]
    assert first["session"]["display_label"] == "First" and first["open"] == {"session_id": first["id"]}
    assert first["session"]["started_at"] == "2026-04-29T18:10:00.000Z"
    assert first["session"]["updated_at"] == "2026-04-29T18:20:00.000Z"
    assert (first["session"]["turn_count"], first["session"]["event_count"]) == (1, 2)
    untitled = rows[session_id(sessions["s3"])]["session"]
    assert untitled["display_label"] == "Codex, tool session, 2026-04-29T18:30:00.000Z, 1 turn"
    assert "snippet" not in str(rows) and "text" not in str(rows)


def test_range_ending_before_it_starts_is_invalid_request(store: Store) -> None:
    with pytest.raises(RequestError) as caught:
        call(store, WIDE[1], WIDE[0])
    assert caught.value.details == {"field": "end_datetime"}
    with pytest.raises(RequestError):
        call(store, "2026-01-01T00:00:00", WIDE[1])


def test_republished_session_is_listed_once_with_its_latest_metadata(store: Store) -> None:
    corpus = Corpus(store)
    key = corpus.add(Sess("grows", mode="chat", turns=[[Ev("user_input", "a", at(10))]]))
    corpus.sessions["grows"].sess.mode = "tool_calling"
    corpus.append("grows", [Ev("user_input", "b", at(20))], new_turn=True)
    rows = call(store)["sessions"]
    assert [row["id"] for row in rows] == [session_id(key)]
    assert rows[0]["session"]["turn_count"] == 2 and rows[0]["session"]["mode"] == "tool_calling"
    assert call(store, mode="chat")["sessions"] == []
