"""Make the next query cold: drop ClickHouse's caches and evict the store's files from the OS page cache."""

from __future__ import annotations

import os
from pathlib import Path

from moraine.errors import StoreError
from moraine.store.client import Store

__all__ = ["disable_result_caches", "make_cold"]

_DROPS = (
    "SYSTEM DROP MARK CACHE",
    "SYSTEM DROP UNCOMPRESSED CACHE",
    "SYSTEM DROP QUERY CONDITION CACHE",
    "SYSTEM DROP QUERY CACHE",
    "SYSTEM DROP PRIMARY INDEX CACHE",
    "SYSTEM DROP MMAP CACHE",
)
# Caches that make a repeated query look faster than any first-time query can be (dependency-facts.md).
NO_RESULT_CACHES = {"use_query_condition_cache": 0, "use_query_cache": 0}


def disable_result_caches(store: Store) -> None:
    """Turn off the query condition cache and the query result cache for every later query of ``store``."""
    for key, value in NO_RESULT_CACHES.items():
        store.set_setting(key, value)


def make_cold(store: Store, store_dir: Path | None) -> list[str]:
    """Drop ClickHouse's caches and the page cache of ``store_dir``'s files; return the drops that failed."""
    failed = []
    for statement in _DROPS:
        try:
            store.command(statement)
        except StoreError:
            failed.append(statement)
    if store_dir is not None:
        # os.walk skips directories that vanish mid-walk (background merges remove their tmp_merge_* dirs).
        for folder, _, names in os.walk(store_dir):
            for name in names:
                try:
                    fd = os.open(os.path.join(folder, name), os.O_RDONLY)
                except OSError:
                    continue
                try:
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                finally:
                    os.close(fd)
    return failed
