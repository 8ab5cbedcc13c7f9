"""Exactly-once paging on data written by the real ingest pipeline, while ingest appends to the same session and
turn between pages (a 120-turn session and a turn of 200+ events, page sizes 1, 7 and the maximum, 50).

The sizes only need every page size to take many pages with several ingest passes between them: paging reads a
range of seqs below the first page's snapshot, whatever the count (the whole write_traces corpus, 300 turns and
2,000+ events, took 2,000 open calls and ~60 ingest passes at page size 1 alone). With the appends every
``35 // limit`` pages, each case sees at least two passes append to the session or turn while it is paged.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from fixtures.handler_data import open_data
from fixtures.corpus.builder import scratch_store
from fixtures.corpus.traces import UUIDS, Layout, append_codex_calls, append_codex_turns, write_traces
from moraine.ids import event_id, session_id, session_key, turn_id
from moraine.ingest.pipeline import ingest_paths
from moraine.store.client import Store
from tests.fixtures.requests import open_request

SECRET = b"paging-ingest-secret"
BIG_TURNS = 120
WIDE_CALLS = 100  # a call and its output each: 200 events in the turn, plus the user's and the final message
BIG = session_key("codex", UUIDS["big"])
WIDE = session_key("codex", UUIDS["wide"])


@dataclass
class Live:
    store: Store
    home: Path
    layout: Layout
    appended_turns: int = 0
    appended_calls: int = 0

    def ingest(self) -> None:
        summary = ingest_paths(
            self.store, [self.home / ".codex" / "sessions"], source="codex", harness="codex"
        )
        assert summary.errors == 0


@pytest.fixture(scope="module")
def live(store_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    home = tmp_path_factory.mktemp("paging-home")
    with scratch_store(store_dsn) as store:
        state = Live(store, home, write_traces(home, BIG_TURNS, WIDE_CALLS))
        state.ingest()
        yield state


def _open(store: Store, **kw: object) -> dict[str, object]:
    return open_data(store, open_request(SECRET, **kw), cursor_secret=SECRET)


def _follow(live: Live, target: str, limit: int, grow: bool) -> list[str]:
    first = _open(live.store, id=target, limit=limit)
    key = "turns" if first["kind"] == "session" else "events"
    seen = [item["id"] for item in first[key]]  # type: ignore[attr-defined, index]
    cursor, pages = first["next_cursor"], 0
    while cursor is not None:
        pages += 1
        if pages % max(1, 35 // limit) == 0:
            if grow:
                append_codex_turns(live.layout.codex["big"], BIG_TURNS + live.appended_turns, 2)
                live.appended_turns += 2
            else:
                append_codex_calls(live.layout.codex["wide"], live.appended_calls, 3)
                live.appended_calls += 3
            live.ingest()
        data = _open(live.store, cursor=cursor)
        items = data[key]
        assert len(items) <= limit  # type: ignore[arg-type]
        seen.extend(item["id"] for item in items)  # type: ignore[attr-defined]
        cursor = data["next_cursor"]
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("limit", [1, 7, 50])
def test_ingested_session_pages_every_turn_once_while_ingest_appends_turns(live: Live, limit: int) -> None:
    count = _open(live.store, id=session_id(BIG))["session"]["turn_count"]  # type: ignore[index]
    seen = _follow(live, session_id(BIG), limit, grow=True)
    assert seen == [turn_id(BIG, n) for n in range(1, count + 1)]  # type: ignore[operator]
    grown = _open(live.store, id=session_id(BIG))["session"]["turn_count"]  # type: ignore[index]
    assert grown > count  # type: ignore[operator]


@pytest.mark.slow
@pytest.mark.parametrize("limit", [1, 7, 50])
def test_ingested_turn_pages_every_event_once_while_ingest_appends_events(live: Live, limit: int) -> None:
    turn = _open(live.store, id=turn_id(WIDE, 1))["turn"]
    count = turn["event_count"]  # type: ignore[index]
    assert count >= 2 * WIDE_CALLS
    seen = _follow(live, turn_id(WIDE, 1), limit, grow=False)
    assert seen == [event_id(WIDE, n) for n in range(1, count + 1)]  # type: ignore[operator]
    grown = _open(live.store, id=turn_id(WIDE, 1))["turn"]["event_count"]  # type: ignore[index]
    assert grown > count  # type: ignore[operator]
