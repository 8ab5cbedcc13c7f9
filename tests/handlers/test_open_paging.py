"""Exactly-once paging on rows written straight into the tables (read side alone): following next_cursor returns
every child of the first page's snapshot once, in order, while rows are appended between pages. Page size 1 runs in
``test_open_paging_ingest.py`` on data written by the real ingest pipeline."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fixtures.handler_data import open_data
from fixtures.corpus.builder import Corpus, Ev, Sess, at, scratch_store
from moraine.ids import event_id, session_id, turn_id
from moraine.store.client import Store
from tests.fixtures.requests import open_request

SECRET = "paging-secret"
TURNS = 300
EVENTS = 2000


@pytest.fixture(scope="module")
def big(store_dsn: str) -> Iterator[tuple[Store, Corpus, int, int]]:
    """A 300-turn session (tied timestamps) and a session whose only turn has 2,000 events."""
    with scratch_store(store_dsn) as store:
        corpus = Corpus(store)
        long_session = corpus.add(
            Sess("many-turns", turns=[[Ev("user_input", f"turn {n}", at(n // 3))] for n in range(TURNS)])
        )
        wide_turn = corpus.add(
            Sess("wide-turn", turns=[[Ev("tool_response", f"line {n}", at(1)) for n in range(EVENTS)]])
        )
        yield store, corpus, long_session, wide_turn


def _follow(store: Store, corpus: Corpus, target: str, limit: int, grow: str, new_turn: bool) -> list[str]:
    first = open_data(store, open_request(SECRET, id=target, limit=limit), cursor_secret=SECRET)
    key = "turns" if first["kind"] == "session" else "events"
    seen = [item["id"] for item in first[key]]
    cursor, pages = first["next_cursor"], 0
    while cursor is not None:
        pages += 1
        if pages % max(1, 40 // limit) == 0:  # keep appending while we page
            corpus.append(grow, [Ev("user_input", f"appended {pages}", at(500))], new_turn=new_turn)
        data = open_data(store, open_request(SECRET, cursor=cursor), cursor_secret=SECRET)
        assert len(data[key]) <= limit
        seen.extend(item["id"] for item in data[key])
        cursor = data["next_cursor"]
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("limit", [7, 50])
def test_session_turn_pages_return_every_turn_once_while_turns_are_appended(
    big: tuple[Store, Corpus, int, int], limit: int
) -> None:
    store, corpus, key, _ = big
    before = open_data(store, open_request(SECRET, id=session_id(key)), cursor_secret=SECRET)
    count = before["session"]["turn_count"]
    seen = _follow(store, corpus, session_id(key), limit, "many-turns", new_turn=True)
    assert len(seen) == count >= TURNS
    assert seen == [turn_id(key, n) for n in range(1, count + 1)]
    after = open_data(store, open_request(SECRET, id=session_id(key)), cursor_secret=SECRET)
    assert after["session"]["turn_count"] > count  # turns really were appended during paging


@pytest.mark.slow
@pytest.mark.parametrize("limit", [7, 50])
def test_turn_event_pages_return_every_event_once_while_events_are_appended(
    big: tuple[Store, Corpus, int, int], limit: int
) -> None:
    store, corpus, _, key = big
    before = open_data(store, open_request(SECRET, id=turn_id(key, 1)), cursor_secret=SECRET)
    count = before["turn"]["event_count"]
    seen = _follow(store, corpus, turn_id(key, 1), limit, "wide-turn", new_turn=False)
    assert len(seen) == count >= EVENTS
    assert seen == [event_id(key, n) for n in range(1, count + 1)]
    after = open_data(store, open_request(SECRET, id=turn_id(key, 1)), cursor_secret=SECRET)
    assert after["turn"]["event_count"] > count  # rows really were appended during paging
