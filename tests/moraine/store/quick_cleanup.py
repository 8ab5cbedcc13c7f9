"""Let ClickHouse remove a test database's replaced parts within a second or two instead of 10 s.

A forget waits until the parts its mutations replaced have left the disk: ``old_parts_lifetime`` (10 s on our
tables, migration 013) plus the cleanup's next look (1-5 s, 014 and 015). Tests of what a forget removes, and from
where, run on their own database; shortening the lifetime there changes only how long the wait lasts, not what is
waited for. ``test_store_forget`` checks the real settings, and ``tests/e2e/test_daemon_forget.py`` forgets with them.
"""

from __future__ import annotations

from moraine.store.client import Store
from moraine.store.forget import CONTENT_TABLES

__all__ = ["BRIEF_PARTS_LIFETIME", "keep_replaced_parts_briefly"]

BRIEF_PARTS_LIFETIME = 1  # seconds


def keep_replaced_parts_briefly(store: Store) -> None:
    """Set ``old_parts_lifetime`` to ``BRIEF_PARTS_LIFETIME`` on every table of ``store`` a forget waits on."""
    for table in CONTENT_TABLES:
        store.command(
            f"ALTER TABLE {store.table(table)} MODIFY SETTING old_parts_lifetime = {BRIEF_PARTS_LIFETIME}"
        )
