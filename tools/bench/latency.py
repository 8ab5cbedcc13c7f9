"""Time tool calls: warm (repeated, caches warm), cold (caches dropped before each call) and concurrent."""

from __future__ import annotations

import random
import resource
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tools.bench.cases import Case
from tools.bench.client import ToolClient, ToolFailed
from tools.bench.stats import Latency

__all__ = ["CaseResult", "ConcurrentResult", "run_cold", "run_concurrent", "run_warm"]


@dataclass(slots=True)
class CaseResult:
    name: str
    tool: str
    latency: Latency | None
    errors: list[str] = field(default_factory=list)
    cpu_ms: float | None = None  # process CPU time per call (all threads, chDB's included): work, not waiting


@dataclass(slots=True)
class ConcurrentResult:
    clients: int
    calls: int
    seconds: float
    cases: list[CaseResult]

    @property
    def calls_per_second(self) -> float:
        return self.calls / self.seconds if self.seconds else 0.0


def _timed(client: ToolClient, case: Case, index: int, samples: list[float], errors: list[str]) -> None:
    args = case.variants[index % len(case.variants)]
    started = time.perf_counter()
    try:
        client.call(case.tool, args)
    except ToolFailed as exc:
        errors.append(str(exc))
        return
    samples.append(time.perf_counter() - started)


def _result(case: Case, samples: list[float], errors: list[str]) -> CaseResult:
    return CaseResult(case.name, case.tool, Latency.of(samples) if samples else None, errors[:5])


def run_warm(client: ToolClient, cases: list[Case], repeat: int) -> list[CaseResult]:
    """Call each variant once untimed, then time ``repeat`` calls per case cycling through the variants."""
    out = []
    for case in cases:
        errors: list[str] = []
        for i in range(len(case.variants)):
            _timed(client, case, i, [], errors)
        samples: list[float] = []
        cpu_before = _cpu_seconds()
        for i in range(repeat):
            _timed(client, case, i, samples, errors)
        result = _result(case, samples, errors)
        result.cpu_ms = (_cpu_seconds() - cpu_before) * 1000 / repeat
        out.append(result)
    return out


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_cold(
    client: ToolClient, cases: list[Case], repeat: int, make_cold: Callable[[], object]
) -> list[CaseResult]:
    """Time ``repeat`` calls per case, each right after ``make_cold()`` (untimed)."""
    out = []
    for case in cases:
        samples: list[float] = []
        errors: list[str] = []
        for i in range(repeat):
            make_cold()
            _timed(client, case, i, samples, errors)
        out.append(_result(case, samples, errors))
    return out


def run_concurrent(
    client: ToolClient, cases: list[Case], clients: int, rounds: int, seed: int = 1
) -> ConcurrentResult:
    """Run ``clients`` threads, each calling every case ``rounds`` times in its own shuffled order."""
    samples: dict[str, list[float]] = {c.name: [] for c in cases}
    errors: dict[str, list[str]] = {c.name: [] for c in cases}
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)

    def worker(n: int) -> None:
        rng = random.Random(seed * 1000 + n)
        plan = [(case, i) for case in cases for i in range(rounds)]
        rng.shuffle(plan)
        mine: dict[str, list[float]] = {c.name: [] for c in cases}
        mine_err: dict[str, list[str]] = {c.name: [] for c in cases}
        start.wait()
        for case, i in plan:
            _timed(client, case, i + n, mine[case.name], mine_err[case.name])
        with lock:
            for name in mine:
                samples[name].extend(mine[name])
                errors[name].extend(mine_err[name])

    threads = [threading.Thread(target=worker, args=(n,), daemon=True) for n in range(clients)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - began
    results = [_result(c, samples[c.name], errors[c.name]) for c in cases]
    calls = sum(len(v) for v in samples.values())
    return ConcurrentResult(clients, calls, seconds, results)
