"""The file-store harnesses end to end: every fixture home ingested from its default locations, then read back.

One store holds the fake homes of all the harnesses listed in ``PKGS`` (``tests/harnesses/<pkg>/home/``), found
through the harnesses' own declared locations with ``HOME`` pointed at the merged home. For each harness, as its
``expect.json`` says: ``search_sessions`` finds the planted keyword in that harness only; ``list_sessions``
filtered by the harness value lists its sessions with the expected title; ``open`` walks the session (native ID,
resume command, turns); ``file_attention`` finds the file its edit tool touched (where the harness records tool
calls: ``touched_file`` is null otherwise).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from fixtures.corpus.builder import scratch_store
from fixtures.harness_homes import Expect, build_home, home_sources, search
from handlers.file_attention import file_attention_data
from handlers.list_sessions import list_data
from handlers.open import open_data
from moraine.ingest.pipeline import Ingestor
from moraine.store.client import Store

SECRET = "e2e-secret"
PKGS = [
    "openclaw",
    "qclaw",
    "forge",
    "deepseek_tui",
    "cortex_code",
    "deepseek_harness",
    "posit_assistant",
    "poolside",
    "reasonix",
    "mimocode",
    "piebald",
    "zcode",
    "warp",
    "icodemate",
    "commandcode",
    "shelley",
    "codebuff",
]
EXPECT = [Expect.load(pkg) for pkg in PKGS]
# file_attention's other arguments: every project, any time, tool and source.
ANY_TOUCH: dict[str, Any] = {"scope": "all", "granularity": "events", "start_datetime": None}
ANY_TOUCH |= {"end_datetime": None, "tool": None, "source": None, "mutations_only": False}
ANY_TOUCH |= {"limit": 50, "launch_dir": None}


@pytest.fixture(scope="module")
def corpus(store_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """Yield one store holding every listed harness's fixture home, ingested from its default sources."""
    home = build_home(PKGS, tmp_path_factory.mktemp("home"))
    sources, files = home_sources({e.harness for e in EXPECT}, home)
    assert all(files[e.source] for e in EXPECT), {s: len(f) for s, f in files.items()}
    with scratch_store(store_dsn) as store:
        summary = Ingestor(store).run(sources, files)
        assert summary is not None
        yield store


def _sessions(store: Store, harness: str) -> list[dict[str, Any]]:
    listed = list_data(
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
    return [row["session"] for row in listed["sessions"]]


@pytest.mark.parametrize("expect", EXPECT, ids=PKGS)
def test_search_finds_the_planted_keyword_in_its_harness_only(corpus: Store, expect: Expect) -> None:
    hits = search(corpus, expect.keyword)
    assert hits, f"{expect.keyword} not found"
    assert {(h["session"]["harness"], h["session"]["source"]) for h in hits} == {
        (expect.harness, expect.source)
    }
    assert expect.keyword in hits[0]["snippet"]["text"]
    for other in EXPECT:
        if other.harness != expect.harness:
            assert search(corpus, other.keyword, harness=expect.harness) == []


@pytest.mark.parametrize("expect", EXPECT, ids=PKGS)
def test_list_sessions_filters_by_harness_with_titles(corpus: Store, expect: Expect) -> None:
    sessions = _sessions(corpus, expect.harness)
    assert len(sessions) == expect.sessions
    assert {s["harness"] for s in sessions} == {expect.harness}
    hit = search(corpus, expect.keyword)[0]
    assert hit["session"]["title"] == expect.title


@pytest.mark.parametrize("expect", EXPECT, ids=PKGS)
def test_open_walks_the_session_with_its_native_id_and_resume(corpus: Store, expect: Expect) -> None:
    hit = search(corpus, expect.keyword)[0]
    opened = open_data(
        corpus, id=hit["session"]["id"], limit=50, cursor=None, max_results=50, cursor_secret=SECRET
    )
    session = opened["session"]
    assert (session["harness"], session["title"]) == (expect.harness, expect.title)
    assert session["native_id"]
    assert session["resume_command"] == expect.resume
    turns = opened["turns"]
    assert turns and session["event_count"] >= 2
    turn = open_data(corpus, id=turns[0]["id"], limit=50, cursor=None, max_results=50, cursor_secret=SECRET)
    types = {event["type"] for event in turn["events"]}
    # A harness that records no tool calls (Warp keeps only the queries) has no touched file.
    walked = {"user_input", "tool_call", "tool_response"} if expect.touched_file else {"user_input"}
    assert walked <= types


@pytest.mark.parametrize("expect", EXPECT, ids=PKGS)
def test_file_attention_finds_the_file_its_edit_tool_touched(corpus: Store, expect: Expect) -> None:
    if expect.touched_file is None:
        pytest.skip(f"{expect.harness} records no tool calls")
    result = file_attention_data(corpus, path=expect.touched_file, harness=expect.harness, **ANY_TOUCH)
    assert result.data["summary"]["total_touches"] >= 1, result.data
