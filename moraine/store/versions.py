"""Row versions of the replacing tables (the newest version of a key wins): a counter that only moves forward.

A version is the wall clock in nanoseconds while the clock runs ahead of every version given out before, and one
more than the last otherwise. The counter starts past the largest version already stored (``seed_versions``, run
when a store is opened), so a clock stepped back, within a process or across a restart, never makes newer rows lose.
"""

from __future__ import annotations

import threading
from time import time_ns
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from moraine.store.client import Store

__all__ = ["VERSIONED_TABLES", "next_version", "seed_versions"]

VERSIONED_TABLES = ("checkpoints", "turns", "sessions", "vector_marks", "mirror_watermarks")
_lock = threading.Lock()
_last = 0


def next_version() -> int:
    """Return a version greater than every one returned or seen in a store before."""
    global _last
    with _lock:
        _last = max(time_ns(), _last + 1)
        return _last


def seed_versions(store: Store) -> int:
    """Move the counter past every version stored in ``store``'s replacing tables; return the largest stored."""
    global _last
    maxima = " UNION ALL ".join(f"SELECT max(version) AS v FROM {store.table(t)}" for t in VERSIONED_TABLES)
    stored = int(store.query(f"SELECT max(v) FROM ({maxima})")[0][0] or 0)
    with _lock:
        _last = max(_last, stored)
    return stored
