"""Wait for the background merges (and mutations) of a bulk load to finish before timing reads.

A fresh bulk load leaves many parts; ClickHouse merges them in the background within minutes, and a long-running
daemon serves almost all of its queries after that. Mutations run in the background too: a migration's MATERIALIZE
(an index, a projection) and lightweight deletes rewrite parts for minutes on a large store without showing in
``system.merges``. The benchmark times reads on that settled store and reports how long settling took (reads during
those minutes compete with the background work for the CPU).
"""

from __future__ import annotations

import time

from moraine.store.client import Store

__all__ = ["wait_for_merges"]


def wait_for_merges(
    store: Store, limit_seconds: float = 1800.0, quiet_seconds: float = 20.0, poll_seconds: float = 1.0
) -> tuple[float, bool]:
    """Return (seconds waited, settled) once no merge or mutation has run for ``quiet_seconds`` (merges are
    scheduled one after another, so a single idle moment proves nothing); settled is False when they still ran after
    ``limit_seconds``.
    """
    started = time.perf_counter()
    quiet_since = started
    while True:
        now = time.perf_counter()
        if _working(store):
            quiet_since = now
        elif now - quiet_since >= quiet_seconds:
            return quiet_since - started, True
        if now - started >= limit_seconds:
            return now - started, False
        time.sleep(poll_seconds)


def _working(store: Store) -> bool:
    """Whether a merge or an unfinished mutation of our database is in the background."""
    rows = store.query(
        "SELECT (SELECT count() FROM system.merges WHERE database = {db:String}) "
        "+ (SELECT count() FROM system.mutations WHERE database = {db:String} AND NOT is_done)",
        {"db": store.database},
    )
    return int(rows[0][0]) > 0
