"""The VS Code family and its neighbours end to end: fixture homes ingested from the standard locations, read back.

One store holds every harness's fake home (``home_corpus``); each row of ``PKGS`` is one harness, checked against
its ``expect.json``: search finds the planted keyword in that harness only, ``list_sessions`` filtered by the
harness shows its sessions and title, ``open`` walks the session with its resume command, and ``file_attention``
finds the file the harness's edit tool touched.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from harnesses.home_corpus import Expect, build_home, expectation, ingest_home

from fixtures.corpus.builder import scratch_store
from handlers.file_attention import file_attention_data
from handlers.list_sessions import list_data
from handlers.open import open_data
from handlers.search_sessions import search_data
from moraine.store.client import Store
from moraine.store.reads.search import Bm25

SECRET = "ide-e2e-secret"
PKGS = [
    "vscode_copilot",
    "cline",
    "roo_code",
    "kilo",
    "windsurf",
    "trae",
    "trae_cli",
    "visual_studio_copilot",
    "zencoder",
]
EXPECTS = [expectation(pkg) for pkg in PKGS]


@pytest.fixture(scope="module")
def corpus(store_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """Yield one store holding every harness's fixture home, ingested from its standard sources."""
    home = build_home(PKGS, tmp_path_factory.mktemp("ide-home"))
    with scratch_store(store_dsn) as store:
        summary = ingest_home(store, home, [e.harness for e in EXPECTS])
        assert summary is not None
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


def _listed(store: Store, harness: str) -> list[dict[str, Any]]:
    data = list_data(
        store,
        start_datetime="1970-01-02T00:00:00Z",
        end_datetime="2100-01-01T00:00:00Z",
        limit=100,
        cursor=None,
        mode=None,
        harness=harness,
        source=None,
        sort="desc",
        cursor_secret=SECRET,
    )
    return [s["session"] for s in data["sessions"]]


@pytest.mark.parametrize("expect", EXPECTS, ids=PKGS)
def test_search_finds_the_planted_keyword_in_its_harness_only(corpus: Store, expect: Expect) -> None:
    hits = _search(corpus, expect.keyword)
    assert hits, f"{expect.keyword} not found"
    assert {(h["session"]["harness"], h["session"]["source"]) for h in hits} == {
        (expect.harness, expect.source)
    }
    assert expect.keyword in hits[0]["snippet"]["text"]
    for other in EXPECTS:
        if other.harness != expect.harness:
            assert _search(corpus, expect.keyword, harness=other.harness) == []


@pytest.mark.parametrize("expect", EXPECTS, ids=PKGS)
def test_list_sessions_filters_by_harness_and_shows_the_title(corpus: Store, expect: Expect) -> None:
    sessions = _listed(corpus, expect.harness)
    assert len(sessions) == expect.sessions
    assert {s["harness"] for s in sessions} == {expect.harness}
    hit = _search(corpus, expect.keyword)[0]
    assert hit["session"]["title"] == expect.title


@pytest.mark.parametrize("expect", EXPECTS, ids=PKGS)
def test_open_walks_the_session_with_its_resume_command(corpus: Store, expect: Expect) -> None:
    hit = _search(corpus, expect.keyword)[0]
    opened = _open(corpus, hit["session"]["id"], limit=50)
    assert (opened["session"]["harness"], opened["session"]["title"]) == (expect.harness, expect.title)
    assert opened["session"]["resume_command"] == expect.resume
    types: set[str] = set()
    for turn in opened["turns"]:
        types.update(e["type"] for e in _open(corpus, turn["id"], limit=200)["events"])
    assert {"user_input", "assistant_response"} <= types
    if expect.touched_file is not None:
        assert {"tool_call", "tool_response"} & types
    assert expect.keyword in _open(corpus, hit["id"])["content"]["text"]


def _open(store: Store, id: str, limit: int | None = None) -> dict[str, Any]:
    return dict(open_data(store, id=id, limit=limit, cursor=None, max_results=200, cursor_secret=SECRET))


@pytest.mark.parametrize("expect", EXPECTS, ids=PKGS)
def test_file_attention_finds_the_file_the_edit_tool_touched(corpus: Store, expect: Expect) -> None:
    if expect.touched_file is None:
        pytest.skip(f"{expect.harness} records no tool calls")
    unbounded = dict.fromkeys(("start_datetime", "end_datetime", "tool", "source", "launch_dir"))
    request = {"scope": "all", "granularity": "events", "mutations_only": True, "limit": 50, **unbounded}
    result = file_attention_data(corpus, path=expect.touched_file, harness=expect.harness, **request)
    events = result.data["events"]
    assert events, f"no touch of {expect.touched_file}"
    assert {e["event"]["harness"] for e in events} == {expect.harness}
