"""Every other harness end to end: its own fixture ingested through the real pipeline, then read back.

For each source, ``search_sessions`` with that exact ``harness``/``source`` filter finds the keyword planted in
the fixture and nothing from other harnesses; ``list_sessions`` and ``open`` show the right harness, source, title
and completion. ``pi``/``omp`` and ``prime-agent``/``prime-agent-subagents`` share a harness and are told apart
by ``source``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fixtures.handler_data import list_data, open_data, search_data
from fixtures.corpus.builder import scratch_store
from moraine.ingest.pipeline import ingest_paths
from moraine.store.client import Store
from moraine.store.reads.search import Bm25
from tests.fixtures.requests import list_request, open_request, search_request

SECRET = "e2e-secret"
FIXTURES = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Case:
    source: str
    harness: str
    format: str
    fixture: str  # file or directory under tests/fixtures (``*.sql`` is built into a database first)
    keyword: str
    title: str  # the harness's title, else the first prompt's first line
    completed: bool


CASES = [
    Case(
        "qwen-code",
        "qwen-code",
        "jsonl",
        "qwen_code/home/.qwen/projects",
        "qwenorchardkeyword",
        "Pomegranate importer rows",
        True,
    ),
    Case(
        "pi",
        "pi-coding-agent",
        "jsonl",
        "pi_coding_agent/home/.pi/agent/sessions",
        "pilighthousekeyword",
        "Lighthouse lamp driver",
        True,  # its last turn ends on a tool call, but nothing was written for 30 minutes (issue 44)
    ),
    Case(
        "omp",
        "pi-coding-agent",
        "jsonl",
        "pi_coding_agent/home/.omp/agent/sessions",
        "omphornkeyword",
        "Fog horn schedule",
        True,
    ),
    Case(
        "prime-agent",
        "prime-agent",
        "jsonl",
        "prime_agent/home/.prime/agent/sessions",
        "primetidekeyword",
        "Harbor tide tables",
        True,
    ),
    Case(
        "prime-agent-subagents",
        "prime-agent",
        "jsonl",
        "prime_agent/home/.prime/agent/session-artifacts",
        "primechildkeyword",
        "parse tide csv",
        True,
    ),
    Case(
        "cursor",
        "cursor",
        "jsonl",
        "cursor/home/.cursor/projects",
        "cursorkilnkeyword",
        "Why is the kiln temperature graph flat? cursorkilnkeyword",
        True,  # idle for 30 minutes, whatever its last record (issue 44)
    ),
    Case(
        "cursor-sqlite",
        "cursor",
        "cursor_sqlite",
        "cursor/home/.config/Cursor/User/globalStorage/state.vscdb.sql",
        "cursorglazekeyword",
        "Glaze recipe converter",
        True,
    ),
    Case(
        "kimi-cli",
        "kimi-cli",
        "jsonl",
        "kimi_cli/home/.kimi/sessions",
        "kimihivekeyword",
        "Audit the beehive sensor firmware. kimihivekeyword",
        True,
    ),
    Case(
        "kiro",
        "kiro-cli",
        "jsonl",
        "kiro_cli/home/.kiro/sessions",
        "kirovenkeyword",
        "Greenhouse vent controller",
        True,
    ),
    Case(
        "hermes",
        "hermes",
        "session_json",
        "hermes/home/.hermes/sessions/session_20260801_090000_abc123.json",
        "hermeswindkeyword",
        "Is the anemometer calibrated? hermeswindkeyword",  # no harness title: the first prompt
        True,
    ),
    Case(
        "opencode",
        "opencode",
        "opencode_sqlite",
        "opencode/home/.local/share/opencode/opencode.db.sql",
        "opencodepumpkeyword",
        "Aquarium pump schedule",
        True,
    ),
    Case(
        "nac",
        "nac",
        "nac_sqlite",
        "nac/home/.nac/store.db.sql",
        "nacorchidkeyword",
        "Which orchid needs misting daily? nacorchidkeyword",
        True,
    ),
]


def _paths(case: Case, scratch: Path) -> list[Path]:
    fixture = FIXTURES / case.fixture
    if fixture.suffix != ".sql":
        return [fixture]
    database = scratch / f"{case.source}.db"
    connection = sqlite3.connect(database)
    connection.executescript(fixture.read_text(encoding="utf-8"))
    connection.commit()
    connection.close()
    return [database]


@pytest.fixture(scope="module")
def corpus(store_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """Yield one store holding every case's fixture, each ingested as its own source."""
    scratch = tmp_path_factory.mktemp("other-harnesses")
    with scratch_store(store_dsn) as store:
        for case in CASES:
            summary = ingest_paths(
                store, _paths(case, scratch), source=case.source, harness=case.harness, format=case.format
            )
            assert summary is not None
        yield store


def _search(store: Store, query: str, **filters: Any) -> list[dict[str, Any]]:
    data = search_data(
        store,
        search_request(
            query=query,
            event_types=["user_input", "assistant_response"],
            harness=filters.get("harness"),
            source=filters.get("source"),
            n_hits=20,
        ),
        bm25=Bm25(),
        snippet_chars=200,
    )
    return list(data["results"])


@pytest.mark.parametrize("case", CASES, ids=[c.source for c in CASES])
def test_source_filter_finds_its_planted_keyword_and_nothing_else(corpus: Store, case: Case) -> None:
    hits = _search(corpus, case.keyword, source=case.source)
    assert hits, f"{case.keyword} not found in source {case.source}"
    assert {(h["session"]["source"], h["session"]["harness"]) for h in hits} == {(case.source, case.harness)}
    assert case.keyword in hits[0]["snippet"]["text"]
    by_harness = _search(corpus, case.keyword, harness=case.harness, source=case.source)
    assert [h["id"] for h in by_harness] == [h["id"] for h in hits]
    others = [c for c in CASES if c.harness != case.harness]
    for other in others:
        assert _search(corpus, other.keyword, harness=case.harness) == []
        assert _search(corpus, other.keyword, source=case.source) == []


@pytest.mark.parametrize("case", CASES, ids=[c.source for c in CASES])
def test_list_and_open_show_harness_source_title_and_completion(corpus: Store, case: Case) -> None:
    hit = _search(corpus, case.keyword, source=case.source)[0]
    listed = list_data(
        corpus,
        list_request(
            SECRET,
            max_results=100,
            start_datetime="1970-01-02T00:00:00Z",
            end_datetime="2100-01-01T00:00:00Z",
            limit=100,
            harness=case.harness,
            source=case.source,
            sort="desc",
        ),
        cursor_secret=SECRET,
    )
    rows = {s["id"]: s["session"] for s in listed["sessions"]}
    assert hit["session"]["id"] in rows
    assert {(s["harness"], s["source"]) for s in rows.values()} == {(case.harness, case.source)}
    session = rows[hit["session"]["id"]]
    assert (session["title"], session["completed"]) == (case.title, case.completed)
    opened = open_data(corpus, open_request(SECRET, id=hit["session"]["id"]), cursor_secret=SECRET)
    shown = opened["session"]
    assert (shown["harness"], shown["source"], shown["title"], shown["completed"]) == (
        case.harness,
        case.source,
        case.title,
        case.completed,
    )
    assert hit["session"]["title"] == case.title


def test_sources_sharing_a_harness_are_told_apart_by_source(corpus: Store) -> None:
    for first, second in (
        ("pi", "omp"),
        ("prime-agent", "prime-agent-subagents"),
        ("cursor", "cursor-sqlite"),
    ):
        a = next(c for c in CASES if c.source == first)
        b = next(c for c in CASES if c.source == second)
        assert a.harness == b.harness
        assert _search(corpus, a.keyword, source=second) == []
        assert _search(corpus, b.keyword, source=first) == []
        both = _search(corpus, f"{a.keyword} {b.keyword}", harness=a.harness)
        assert {h["session"]["source"] for h in both} == {first, second}
