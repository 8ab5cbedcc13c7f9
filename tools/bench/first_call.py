"""The first call of each query through ``moraine mcp`` right after the ingest, as an agent has it.

A real ``moraine mcp`` (stdio) is spawned for the bench's home: it starts the daemon, which opens the store the
ingest just wrote (its merges still running) and, with semantic recall on, the embedder catching up on the whole
backlog. Each query is then called once, timed at the client: the relay's hop, the daemon's dispatch and a search
that no cache has seen. Only the global and session scopes are timed: their arguments come from the manifest
alone, so no discovery call warms anything first. The daemon is stopped before the bench opens the store itself.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import anyio

from moraine.daemon.launcher import live_state
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.state import pid_alive
from tools.bench.cases import Case
from tools.bench.home import bench_env
from tools.bench.latency import CaseResult
from tools.bench.stats import Latency

__all__ = ["POOLED", "measure_first_calls"]

MORAINE = Path(sys.executable).with_name("moraine")
POOLED = "every query (pooled)"  # the last result: all the calls above as one sample
_EMPTY_WINDOW = {"start_datetime": "2000-01-01T00:00:00Z", "end_datetime": "2000-01-02T00:00:00Z", "limit": 1}
_STOP_SECONDS = 60.0  # a daemon closing a 1,000,000-event store with merges running


def measure_first_calls(home: Path, cases: list[Case]) -> tuple[list[CaseResult], float]:
    """Time each variant's one call through a fresh ``moraine mcp``; return the results per case (and last, every
    call pooled) and the seconds from spawning it to its first answer (the daemon's start, untimed in the cases)."""
    from mcp import Client, StdioServerParameters  # here: the package imports this module (worker_cpu's RSS)

    params = StdioServerParameters(command=str(MORAINE), args=["mcp"], env=bench_env(home), cwd=str(home))
    results: list[CaseResult] = []
    pooled: list[float] = []
    started = 0.0

    async def main() -> None:
        nonlocal started
        began = time.perf_counter()
        async with Client(params, read_timeout_seconds=600) as client:
            ready = await client.call_tool("list_sessions", _EMPTY_WINDOW)  # the daemon is up, its store open
            if ready.is_error:
                raise RuntimeError(
                    f"moraine mcp answered list_sessions with an error: {ready.structured_content}"
                )
            started = time.perf_counter() - began
            for case in cases:
                samples: list[float] = []
                errors: list[str] = []
                for arguments in case.variants:
                    t = time.perf_counter()
                    reply = await client.call_tool(case.tool, arguments)
                    elapsed = time.perf_counter() - t
                    if reply.is_error:
                        errors.append(f"{case.tool}: {reply.structured_content}")
                    else:
                        samples.append(elapsed)
                latency = Latency.of(samples) if samples else None
                results.append(CaseResult(case.name, case.tool, latency, errors[:5]))
                pooled.extend(samples)
            if pooled:
                results.append(CaseResult(POOLED, "search_sessions", Latency.of(pooled)))

    try:
        anyio.run(main)
    finally:
        _stop_daemon(home)
    return results, started


def _stop_daemon(home: Path) -> None:
    """TERM the daemon the relay started for ``home`` and wait until it has closed the store."""
    state = live_state(DaemonPaths(home))
    if state is None:
        return
    os.kill(state.pid, signal.SIGTERM)
    deadline = time.monotonic() + _STOP_SECONDS
    while pid_alive(state.pid):
        if time.monotonic() > deadline:
            os.kill(state.pid, signal.SIGKILL)
            break
        time.sleep(0.1)  # not our child: no exit to wait on, so its pid is polled (bounded)
