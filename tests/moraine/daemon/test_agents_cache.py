"""The web page's agents list (``GET /v1/daemon/agents``): the agents whose folders exist here with their session
counts, counted in the store at most once per ``max_age`` however many page views ask."""

from __future__ import annotations

from pathlib import Path

import anyio
import httpx2
from starlette.applications import Starlette

from moraine.config import SourceConfig
from moraine.daemon.agents import AgentsCache, agents_route
from moraine.daemon.routes import AGENTS_PATH
from moraine.ingest.pipeline import ingest_paths
from moraine.store.client import Store

CODEX = Path(__file__).resolve().parents[2] / "harnesses" / "codex" / "home" / ".codex" / "sessions"


class Clock:
    """Monotonic seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _sources(home: Path) -> list[SourceConfig]:
    """Codex's folder exists here; Cursor's does not."""
    return [
        SourceConfig("codex", "codex", f"{CODEX}/**/*.jsonl", str(CODEX)),
        SourceConfig("cursor", "cursor", f"{home}/.cursor/**/*.jsonl", f"{home}/.cursor"),
    ]


def test_the_sessions_are_counted_once_per_max_age_and_new_ones_show_after_it(
    store: Store, tmp_path: Path
) -> None:
    clock = Clock()
    cache = AgentsCache(store, _sources(tmp_path), max_age=30.0, clock=clock)
    before = cache.report()
    assert [(a.harness, a.display_name, a.sessions) for a in before.agents] == [("codex", "Codex", 0)]

    ingested = ingest_paths(store, [CODEX], source="codex", harness="codex")
    assert ingested.sessions == 3
    clock.now += 29.0
    assert cache.report() is before  # within max_age: memory, not the store
    assert cache.counts == 1

    clock.now += 1.0
    after = cache.report()
    assert [(a.harness, a.sessions, a.sources) for a in after.agents] == [("codex", 3, ("codex",))]
    assert cache.counts == 2


def test_the_route_answers_the_agents_with_their_counts_and_the_age_of_the_count(
    store: Store, tmp_path: Path
) -> None:
    ingest_paths(store, [CODEX], source="codex", harness="codex")
    clock = Clock()
    cache = AgentsCache(store, _sources(tmp_path), max_age=30.0, clock=clock)

    async def get_twice() -> list[httpx2.Response]:
        transport = httpx2.ASGITransport(app=Starlette(routes=[agents_route(cache)]))
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765") as client:
            first = await client.get(AGENTS_PATH)
            clock.now += 12.0
            return [first, await client.get(AGENTS_PATH)]

    first, second = anyio.run(get_twice)
    assert first.status_code == 200
    body = first.json()
    assert [(a["harness"], a["sessions"], a["enabled"]) for a in body["agents"]] == [("codex", 3, True)]
    assert body["agents"][0]["locations"] == [str(CODEX)]
    assert body["age_seconds"] == 0.0 and body["max_age_seconds"] == 30.0
    assert second.json()["age_seconds"] == 12.0 and second.json()["agents"] == body["agents"]
    assert cache.counts == 1
