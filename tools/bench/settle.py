"""Wait for the background merges of a bulk load to finish before timing reads.

A fresh bulk load leaves many parts; ClickHouse merges them in the background within minutes, and a long-running
daemon serves almost all of its queries after that. The benchmark times reads on that settled store and reports
how long settling took (reads during those minutes compete with the merges for the CPU).
"""

from __future__ import annotations

import time

from moraine.store.client import Store

__all__ = ["wait_for_merges"]


def wait_for_merges(
    store: Store, limit_seconds: float = 1800.0, poll_seconds: float = 1.0
) -> tuple[float, bool]:
    """Return (seconds waited, settled): settled is False when merges still ran after ``limit_seconds``."""
    started = time.perf_counter()
    while True:
        running = int(
            store.query(
                "SELECT count() FROM system.merges WHERE database = {db:String}", {"db": store.database}
            )[0][0]
        )
        waited = time.perf_counter() - started
        if running == 0:
            return waited, True
        if waited >= limit_seconds:
            return waited, False
        time.sleep(poll_seconds)
