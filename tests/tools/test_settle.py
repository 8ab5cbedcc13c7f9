"""The bench's settle check: reads are timed only once no merge or mutation works in the background."""

from __future__ import annotations

from moraine.store.client import Store
from tools.bench.settle import wait_for_merges


def test_an_unfinished_mutation_keeps_the_store_unsettled(store: Store) -> None:
    table = store.table("settle_probe")
    store.command(f"CREATE TABLE {table} (k UInt32, x UInt32) ENGINE = MergeTree ORDER BY k")
    store.command(f"INSERT INTO {table} SELECT number, number FROM numbers(10)")
    assert wait_for_merges(store, limit_seconds=5, quiet_seconds=0.2, poll_seconds=0.05)[1] is True
    # A mutation that cannot finish stays in system.mutations with is_done = 0 until it is killed.
    store.command(
        f"ALTER TABLE {table} UPDATE x = throwIf(x >= 0, 'never done') WHERE 1",
        settings={"mutations_sync": 0},
    )
    assert wait_for_merges(store, limit_seconds=0.5, quiet_seconds=0.2, poll_seconds=0.05)[1] is False
    store.command(
        "KILL MUTATION WHERE database = {db:String} AND table = 'settle_probe' SYNC", {"db": store.database}
    )
    assert wait_for_merges(store, limit_seconds=5, quiet_seconds=0.2, poll_seconds=0.05)[1] is True
