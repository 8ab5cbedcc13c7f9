"""The store lease: one holder at a time, decided by the server; migrations run under it, so two instances on one
ClickHouse server never run one at once (the lease logic itself also runs on chDB, the same engine)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from moraine.errors import StoreError
from moraine.store.client import Store
from moraine.store.lease import Lease, LeaseBusy, create_lease_table

TTL = 900.0


@pytest.fixture
def leased(store: Store) -> Store:
    create_lease_table(store)
    return store


def _grants(store: Store, name: str = "probe") -> list[tuple[int, str]]:
    rows = store.query(
        f"SELECT generation, owner FROM {store.table('store_leases')} WHERE name = {{name:String}} "
        "ORDER BY generation",
        {"name": name},
    )
    return [(int(g), str(o)) for g, o in rows]


def test_a_held_lease_is_refused_to_a_second_contender_until_it_is_released(leased: Store) -> None:
    first, second = Lease(leased, "probe", TTL, "a"), Lease(leased, "probe", TTL, "b")
    assert first.try_acquire()
    assert not second.try_acquire()
    with pytest.raises(LeaseBusy) as refused:
        second.acquire(wait=0)
    assert "held by a until " in refused.value.message
    first.release()
    assert second.try_acquire()
    assert _grants(leased) == [(1, "a"), (2, "a"), (3, "b")]  # taken by a, released by a, taken by b


def test_two_contenders_claiming_the_same_generation_get_one_winner(leased: Store) -> None:
    """Both read 'free' before either inserts: the server keeps the first insert of generation 1, drops the other."""
    first, second = Lease(leased, "probe", TTL, "a"), Lease(leased, "probe", TTL, "b")
    assert first._claim(1, TTL) is True
    assert second._claim(1, TTL) is False
    assert _grants(leased) == [(1, "a")]
    assert first.held and not second.held


def test_an_expired_lease_is_taken_over_and_its_old_holder_learns_it_on_renewal(leased: Store) -> None:
    crashed = Lease(leased, "probe", TTL, "crashed")
    assert crashed.try_acquire()
    leased.command(
        f"ALTER TABLE {leased.table('store_leases')} UPDATE expires_at = taken_at WHERE owner = 'crashed'",
        settings={"mutations_sync": 1},
    )  # its holder stopped renewing: the grant has run out
    successor = Lease(leased, "probe", TTL, "successor")
    assert successor.try_acquire()
    crashed._renewed_at -= TTL / 3  # it comes back and renews
    with pytest.raises(StoreError, match="expired and was taken by another instance"):
        crashed.keep()
    assert not crashed.held


def test_a_holder_renews_its_lease_while_it_keeps_it(leased: Store) -> None:
    lease = Lease(leased, "probe", TTL, "holder")
    assert lease.try_acquire()
    lease.keep()  # taken just now: nothing to renew yet
    assert _grants(leased) == [(1, "holder")]
    lease._renewed_at -= TTL / 3  # as if a third of the ttl had passed since it was taken
    lease.keep()
    assert _grants(leased) == [(1, "holder"), (2, "holder")]
    assert not Lease(leased, "probe", TTL, "other").try_acquire()


def test_migrations_take_and_release_the_lease_and_an_up_to_date_store_leaves_it_alone(
    migrated_anew: Store,
) -> None:
    store = migrated_anew
    grants = _grants(store, "migrations")
    assert [g for g, _ in grants] == [1, 2]  # the fresh store's migrations: taken, then released
    assert Lease(store, "migrations", TTL, "next").try_acquire()  # free again
    Store.open(store.dsn, store.database).close()  # nothing pending: no lease needed
    assert [g for g, _ in _grants(store, "migrations")] == [1, 2, 3]


def test_a_lease_held_by_a_process_of_this_host_that_is_gone_is_free_at_once(leased: Store) -> None:
    """A migration killed half-way leaves its grant for 15 minutes; the next open on this host need not wait."""
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead, host = int(done.stdout), socket.gethostname()  # reaped: no process has that pid now
    holders = {
        "gone": f"{host}:{dead}:0123456789ab",
        "alive": f"{host}:{os.getpid()}:0123456789ab",
        "elsewhere": f"another-host:{dead}:0123456789ab",
    }
    for name, owner in holders.items():
        assert Lease(leased, name, TTL, owner).try_acquire()
    assert Lease(leased, "gone", TTL, "b").try_acquire()
    assert not Lease(leased, "alive", TTL, "b").try_acquire()
    assert not Lease(
        leased, "elsewhere", TTL, "b"
    ).try_acquire()  # another host's process: wait for its expiry
