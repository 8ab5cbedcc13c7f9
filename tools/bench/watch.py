"""Ingest-to-searchable latency in watch mode: append a line to a live trace file, poll search until it is found.

The product's watch loop (``moraine.ingest.watch.watch``, what ``moraine ingest --watch`` runs) runs in a thread of
this process over a small live corpus of its own (the benchmark corpus is never modified), sharing the store with
the tool client: chDB lets one process own a store, so a second process could not search it while watching.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from moraine.config import SourceConfig
from moraine.ingest.pipeline import Ingestor
from moraine.ingest.watch import watch
from moraine.store.client import Store
from tools.bench.cases import search_args
from tools.bench.client import ToolClient, ToolFailed
from tools.bench.stats import Latency
from tools.corpus import SOURCES, generate
from tools.corpus.trace import iso

__all__ = ["measure_watch"]

Json = dict[str, Any]
_LIVE_EVENTS = 400


def _record(harness: str, path: Path, word: str) -> Json:
    text = f"please check why {word} shows up in the logs"
    if harness == "codex":
        payload = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}
        return {"timestamp": iso(int(time.time() * 1000)), "type": "response_item", "payload": payload}
    return {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/dev/src/live",
        "sessionId": path.stem,
        "version": "2.0.31",
        "type": "user",
        "message": {"role": "user", "content": text},
        "uuid": str(uuid.uuid4()),
        "timestamp": iso(int(time.time() * 1000)),
    }


def _found(client: ToolClient, word: str) -> bool:
    try:
        return bool(client.call("search_sessions", search_args(word))["results"])
    except ToolFailed:
        return False


def measure_watch(
    store: Store, client: ToolClient, live: Path, probes: int = 5, timeout: float = 30.0
) -> Json:
    """Return the latency figures of ``probes`` appended lines (each polled for at most ``timeout`` seconds)."""
    generate(live, _LIVE_EVENTS, seed=7919)
    sources = [
        SourceConfig(
            name=s["name"],
            harness=s["harness"],
            glob=str(live / s["glob"]),
            watch_root=str(live / s["root"]),
        )
        for s in SOURCES
    ]
    files = {
        "codex": sorted((live / "codex").rglob("*.jsonl")),
        "claude-code": sorted((live / "claude").rglob("*.jsonl")),
    }
    ingestor = Ingestor(store)
    first_pass = threading.Event()
    thread = threading.Thread(
        target=watch, args=(ingestor, sources), kwargs={"on_pass": lambda _s: first_pass.set()}, daemon=True
    )
    thread.start()
    samples: list[float] = []
    misses = 0
    try:
        if not first_pass.wait(timeout=120):
            return {"latency_ms": None, "reason": "the watch loop did not finish its first pass in 120 s"}
        for n in range(probes):
            harness = "codex" if n % 2 == 0 else "claude-code"
            path = files[harness][n % len(files[harness])]
            word = f"zqwatchprobe{n}x{uuid.uuid4().hex[:8]}"
            with path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(_record(harness, path, word)) + "\n")
            written = time.perf_counter()
            while not _found(client, word):
                if time.perf_counter() - written > timeout:
                    misses += 1
                    break
                time.sleep(0.01)  # polling interval of the measurement, not synchronization
            else:
                samples.append(time.perf_counter() - written)
    finally:
        ingestor.stop.set()
        thread.join(timeout=30)
    if not samples:
        return {"latency_ms": None, "reason": f"no appended line became searchable within {timeout:.0f} s"}
    lat = Latency.of(samples)
    return {
        "latency_ms": round(lat.p50, 1),
        "p50_ms": round(lat.p50, 1),
        "max_ms": round(lat.max, 1),
        "probes": probes,
        "missed": misses,
        "via": "moraine.ingest.watch.watch in-process (the loop `moraine ingest --watch` runs), polled by search",
    }
