"""Migrations against a ClickHouse server run under the store's lease: two instances starting at once never run one
at the same time (``CLICKHOUSE_URL`` when set, else the test endpoint serving chDB over HTTP)."""

from __future__ import annotations

import os
import threading

import pytest

from moraine.store.client import Store


@pytest.fixture(scope="module")
def store_dsn(request: pytest.FixtureRequest) -> str:
    """A ClickHouse server: ``CLICKHOUSE_URL`` when set, else the test endpoint serving chDB over HTTP."""
    return os.environ.get("CLICKHOUSE_URL") or str(request.getfixturevalue("clickhouse_http_url"))


def test_two_instances_migrating_one_server_at_once_run_the_copy_and_swap_once_and_keep_every_row(
    store: Store, store_dsn: str
) -> None:
    """Migration 008 (copy each table, then swap it in) is pending again on a store with rows; two instances start."""
    database = store.database
    rows = [[i % 7, i, f"text {i}"] for i in range(500)]
    store.insert("events", rows, ["session_key", "seq", "text"])
    store.command(
        f"DELETE FROM {store.table('schema_migrations')} WHERE version = 8",
        settings={"mutations_sync": 1},
    )
    instances = [Store(store_dsn, database) for _ in range(2)]
    applied: list[list[int]] = []
    failures: list[BaseException] = []
    start = threading.Barrier(2)

    def migrate(instance: Store) -> None:
        start.wait(timeout=30)
        try:
            applied.append(instance.migrate())
        except BaseException as exc:  # reported below: the test fails with it
            failures.append(exc)

    threads = [threading.Thread(target=migrate, args=(i,)) for i in instances]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    for instance in instances:
        instance.close()
    assert failures == []
    assert sorted(applied) == [[], [8]]  # one instance ran it; the other waited, then found it applied
    assert store.query(f"SELECT count() FROM {store.table('events')}")[0][0] == 500
    versions = store.query(f"SELECT version FROM {store.table('schema_migrations')} WHERE version = 8")
    assert versions == [(8,)]
    assert not store.query(f"EXISTS TABLE {database}.events_rebuild")[0][0]
