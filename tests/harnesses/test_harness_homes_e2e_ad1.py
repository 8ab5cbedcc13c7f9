"""Gemini CLI, Copilot CLI and the other harnesses of this group end to end, from a fake home.

Each harness's fixtures sit in one temporary HOME at the paths its declared locations name; one ingest of the
standard sources (found without configuration) fills one store. Per harness (one row each): search finds the
planted keyword under its harness and source only, ``list_sessions`` filtered by its harness lists its sessions
with the expected title, ``open`` walks the session and gives the resume command, ``file_attention`` finds the
file its edit tool touched, and the token usage read is stored where the trace records it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from harnesses.harness_store import SECRET, harness_sessions
from harnesses.harness_home import Expect, build_home, expectation

from fixtures.corpus.builder import scratch_store
from handlers.file_attention import file_attention_data
from handlers.open import open_data
from handlers.search_sessions import search_data
from moraine.config import default_sources
from moraine.ingest.adapters import adapter_for, reader_for
from moraine.ingest.adapters.base import StreamContext
from moraine.ingest.discovery import discover
from moraine.ingest.model import Event
from moraine.ingest.pipeline import Ingestor
from moraine.store.client import Store
from moraine.store.reads.search import Bm25

ATTENTION_DEFAULTS: dict[str, Any] = {
    "scope": "all",
    "granularity": "events",
    "mutations_only": False,
    "limit": 50,
}
PACKAGES = sorted(  # the harness folders of this group, each with its home/ and expect.json
    [
        "gemini_cli",
        "copilot_cli",
        "antigravity",
        "qwenpaw",
        "iflow",
        "qoder",
        "workbuddy",
        "openclaude",
        "grok",
    ]
)
EXPECTS = [expectation(package) for package in PACKAGES]
TOUCHING = [e for e in EXPECTS if e.touched_file]  # harnesses whose traces record their tool calls


@pytest.fixture(scope="module")
def corpus(store_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """Yield one store holding every harness's fixtures, ingested from a fake HOME by the standard sources."""
    home = build_home(PACKAGES, tmp_path_factory.mktemp("home"))
    saved = os.environ.get("HOME")
    os.environ["HOME"] = str(home)
    try:
        harnesses = {e.harness for e in EXPECTS}
        sources = [s for s in default_sources("linux") if s.harness in harnesses]
        with scratch_store(store_dsn) as store:
            summary = Ingestor(store).run(sources)
            assert summary.events > 0 and not summary.no_adapter
            yield store
    finally:
        if saved is None:
            del os.environ["HOME"]
        else:
            os.environ["HOME"] = saved


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


@pytest.mark.parametrize("expect", EXPECTS, ids=[e.harness for e in EXPECTS])
def test_search_finds_the_planted_keyword_under_its_harness_and_source_only(
    corpus: Store, expect: Expect
) -> None:
    hits = _search(corpus, expect.keyword)
    assert hits, f"{expect.keyword} not found"
    assert {(h["session"]["harness"], h["session"]["source"]) for h in hits} == {
        (expect.harness, expect.source)
    }
    assert expect.keyword in hits[0]["snippet"]["text"]
    for other in EXPECTS:
        if other.harness != expect.harness:
            assert _search(corpus, other.keyword, harness=expect.harness) == []


@pytest.mark.parametrize("expect", EXPECTS, ids=[e.harness for e in EXPECTS])
def test_list_sessions_filters_by_harness_and_shows_the_title(corpus: Store, expect: Expect) -> None:
    sessions = harness_sessions(corpus, expect.harness)
    assert len(sessions) == expect.sessions
    assert {s["harness"] for s in sessions} == {expect.harness}
    assert expect.title in {s["title"] for s in sessions}


@pytest.mark.parametrize("expect", EXPECTS, ids=[e.harness for e in EXPECTS])
def test_open_walks_the_session_and_gives_its_resume_command(corpus: Store, expect: Expect) -> None:
    hit = _search(corpus, expect.keyword)[0]
    opened = open_data(
        corpus, id=hit["session"]["id"], limit=50, cursor=None, max_results=50, cursor_secret=SECRET
    )
    shown = opened["session"]
    assert (shown["harness"], shown["title"]) == (expect.harness, expect.title)
    assert shown["resume_command"] == expect.resume
    kinds: set[str] = set()
    for turn in opened["turns"]:
        walked = open_data(corpus, id=turn["id"], limit=50, cursor=None, max_results=50, cursor_secret=SECRET)
        kinds |= {e["type"] for e in walked["events"]}
    calls = {"tool_call", "tool_response"} if expect.touched_file else set()
    assert {"user_input", "assistant_response"} | calls <= kinds


@pytest.mark.parametrize("expect", TOUCHING, ids=[e.harness for e in TOUCHING])
def test_file_attention_finds_the_file_its_edit_tool_touched(corpus: Store, expect: Expect) -> None:
    unset = dict.fromkeys(("start_datetime", "end_datetime", "tool", "source", "launch_dir"))
    result = file_attention_data(
        corpus, path=expect.touched_file, harness=expect.harness, **unset, **ATTENTION_DEFAULTS
    )
    assert int(result.data["summary"]["total_touches"]) >= 1


@pytest.mark.parametrize("expect", EXPECTS, ids=[e.harness for e in EXPECTS])
def test_token_usage_is_read_where_the_trace_records_it(corpus: Store, expect: Expect) -> None:
    # The store keeps no token usage yet: read the harness's sources through their readers and adapters.
    used = []
    for source in default_sources("linux"):
        if source.harness != expect.harness:
            continue
        reader, adapter = reader_for(source.format), adapter_for(source.harness)
        assert reader is not None and adapter is not None
        for path in discover(source):
            ctx = StreamContext(path, source.name)
            for item in reader.read(path, 0, 0):
                if item.record is not None:
                    used.extend(
                        e for e in adapter.normalize(item.record, ctx) if isinstance(e, Event) and e.usage
                    )
    assert bool(used) == expect.usage
