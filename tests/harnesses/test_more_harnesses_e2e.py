"""Goose, Aider, OpenHands and the other harnesses of this group end to end, in process, as ``expect.json`` says.

One store holds every harness's fixture home, each location ingested as its own source through the harness's
declared reader and adapter. For each harness: search finds its planted keyword (and only in its own harness),
``open`` walks the hit's session, ``list_sessions`` filtered by the harness shows its sessions with the expected
title, and ``file_attention`` finds the file its edit tool touched.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.harnesses.declared_home import GROUP, Expectation, build_home, ingest_home

from fixtures.corpus.builder import scratch_store
from handlers.file_attention import file_attention_data
from handlers.list_sessions import list_data
from handlers.open import open_data
from handlers.search_sessions import search_data
from moraine.store.client import Store
from moraine.store.reads.search import Bm25

SECRET = "more-harnesses-secret"
PACKAGES = GROUP
EXPECTED = [Expectation.load(package) for package in PACKAGES]
LIST_EVERYTHING: dict[str, Any] = {
    "start_datetime": "1970-01-02T00:00:00Z",
    "end_datetime": "2100-01-01T00:00:00Z",
    "limit": 100,
    "cursor": None,
    "mode": None,
    "source": None,
    "sort": "desc",
    "cursor_secret": SECRET,
}
EVERY_TOUCH: dict[str, Any] = {
    "scope": "all",
    "granularity": "events",
    "start_datetime": None,
    "end_datetime": None,
    "tool": None,
    "source": None,
    "mutations_only": False,
    "limit": 50,
    "launch_dir": None,
}


@pytest.fixture(scope="module")
def corpus(store_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """Yield one store holding every harness's fixture home."""
    home = build_home(PACKAGES, tmp_path_factory.mktemp("home"))
    with scratch_store(store_dsn) as store:
        counts = ingest_home(store, [e.harness for e in EXPECTED], home)
        assert all(counts[e.source] for e in EXPECTED), counts
        yield store


def _search(store: Store, query: str, harness: str | None = None) -> list[dict[str, Any]]:
    data = search_data(
        store,
        query=query,
        within_id=None,
        event_types=["user_input", "assistant_response"],
        harness=harness,
        source=None,
        n_hits=20,
        bm25=Bm25(),
        snippet_chars=200,
    )
    return list(data["results"])


@pytest.mark.parametrize("expect", EXPECTED, ids=PACKAGES)
def test_search_finds_the_planted_keyword_in_its_harness_only(corpus: Store, expect: Expectation) -> None:
    hits = _search(corpus, expect.keyword)
    assert hits, f"{expect.keyword} not found"
    assert {(h["session"]["harness"], h["session"]["source"]) for h in hits} == {
        (expect.harness, expect.source)
    }
    assert expect.keyword in hits[0]["snippet"]["text"]
    for other in EXPECTED:
        if other.harness != expect.harness:
            assert _search(corpus, other.keyword, harness=expect.harness) == []


def _open(store: Store, id_: str) -> dict[str, Any]:
    return open_data(store, id=id_, limit=50, cursor=None, max_results=50, cursor_secret=SECRET)


@pytest.mark.parametrize("expect", EXPECTED, ids=PACKAGES)
def test_open_walks_the_session_of_the_hit(corpus: Store, expect: Expectation) -> None:
    hit = _search(corpus, expect.keyword)[0]
    opened = _open(corpus, hit["session"]["id"])
    assert (opened["session"]["harness"], opened["session"]["title"]) == (expect.harness, expect.title)
    assert opened["session"]["resume_command"] == expect.resume
    turns = opened["turns"]
    assert len(turns) == opened["session"]["turn_count"] >= 1
    events = [event for turn in turns for event in _open(corpus, turn["id"])["events"]]
    assert len(events) == opened["session"]["event_count"]
    types = {event["type"] for event in events}
    assert {"user_input", "assistant_response", "tool_call", "tool_response"} <= types, types


@pytest.mark.parametrize("expect", EXPECTED, ids=PACKAGES)
def test_list_sessions_filters_by_harness(corpus: Store, expect: Expectation) -> None:
    listed = list_data(corpus, harness=expect.harness, **LIST_EVERYTHING)
    sessions = [row["session"] for row in listed["sessions"]]
    assert len(sessions) == expect.sessions
    assert {s["harness"] for s in sessions} == {expect.harness}
    assert expect.title in {s["title"] for s in sessions}


@pytest.mark.parametrize("expect", EXPECTED, ids=PACKAGES)
def test_file_attention_finds_the_file_its_edit_tool_touched(corpus: Store, expect: Expectation) -> None:
    result = file_attention_data(corpus, path=expect.touched_file, harness=expect.harness, **EVERY_TOUCH)
    events = result.data["events"]
    assert events, result.warnings
    assert {row["event"]["harness"] for row in events} == {expect.harness}
    assert any(row["event"]["tool_name"] for row in events)
