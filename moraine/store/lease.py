"""A lease in the database: at most one holder at a time across every process and host using one store.

Migrations are the case: 008 copies each table and swaps it in; two instances running it at once against one
ClickHouse server lose rows or fail half-way. A file lock cannot see another host, so the lease lives in the store:

    store_leases (name, generation, owner, taken_at, expires_at)   one row per grant, never updated

The current grant of a lease is its row with the highest generation. To take a free lease (no row yet, or the last
one expired or released), a contender inserts the next generation with its own owner id, under the deduplication
token ``name:generation``: the table keeps the hashes of its recent inserts (``non_replicated_deduplication_window``),
so when two contenders insert the same generation the server keeps the first and drops the second. Reading the
generation back tells each one whether it won. That is a compare-and-set by the server, independent of clocks on the
clients; every time comes from the server's ``now64()``. Should a server keep both rows anyway (deduplication turned
off in its profile), the earliest ``taken_at`` wins, which every reader agrees on once both rows are visible. A holder renews by taking the next generation itself, and
releases by inserting a grant that is already expired. A holder that dies stops renewing: its grant expires after
``ttl`` and the next contender takes over, at once when the holder was a process of this host that is gone (a
migration killed half-way is resumed by the next open, not 15 minutes later).
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

from moraine.errors import StoreError

if TYPE_CHECKING:
    from moraine.store.client import Store

__all__ = ["Lease", "LeaseBusy", "create_lease_table"]

_TABLE = "store_leases"
_POLL_SECONDS = 0.25


class LeaseBusy(StoreError):
    """Another holder kept the lease for the whole wait; the message names it and until when it holds it."""


def create_lease_table(store: Store) -> None:
    """Create the lease table when it does not exist (idempotent, safe to run from several instances)."""
    store.command(
        f"CREATE TABLE IF NOT EXISTS {store.table(_TABLE)} "
        "(name String, generation UInt64, owner String, "
        "taken_at DateTime64(3, 'UTC'), expires_at DateTime64(3, 'UTC')) "
        "ENGINE = MergeTree ORDER BY (name, generation) "
        "SETTINGS non_replicated_deduplication_window = 1000"
    )


@dataclass(frozen=True, slots=True)
class _Grant:
    generation: int
    owner: str
    expires_at: str
    expired: bool


class Lease:
    """One named lease of ``store``, held for ``ttl`` seconds at a time and renewed by ``keep``."""

    def __init__(self, store: Store, name: str, ttl: float, owner: str | None = None) -> None:
        self.store = store
        self.name = name
        self.ttl = ttl
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
        self._generation: int | None = None
        self._renewed_at = 0.0

    @property
    def held(self) -> bool:
        return self._generation is not None

    def try_acquire(self) -> bool:
        """Take the lease if it is free right now; return whether we hold it."""
        if self._generation is not None:
            return True
        current = self._current()
        if current is not None and not current.expired:
            return False
        return self._claim((current.generation if current else 0) + 1, self.ttl)

    def acquire(self, wait: float) -> None:
        """Take the lease, waiting at most ``wait`` seconds for its holder to release it or let it expire.

        Raises:
            LeaseBusy: another holder kept it for the whole wait.
        """
        deadline = time.monotonic() + wait
        while not self.try_acquire():
            if time.monotonic() >= deadline:
                current = self._current()
                holder = f"{current.owner} until {current.expires_at} UTC" if current else "another instance"
                raise LeaseBusy(
                    f"the {self.name!r} lease of database {self.store.database} is held by {holder}; "
                    f"waited {wait:.0f} s. Try again once that instance is done (or its lease has expired)."
                )
            time.sleep(_POLL_SECONDS)  # the holder is another process: poll within the deadline

    def keep(self) -> None:
        """Renew the lease when a third of its ``ttl`` has passed since it was taken or last renewed.

        Raises:
            StoreError: the lease expired and someone else took it (stop: the work is no longer ours alone).
        """
        if self._generation is None:
            raise StoreError(f"the {self.name!r} lease is not held")
        if time.monotonic() - self._renewed_at < self.ttl / 3:
            return
        if not self._claim(self._generation + 1, self.ttl):
            self._generation = None
            raise StoreError(
                f"the {self.name!r} lease of database {self.store.database} expired and was taken by another "
                "instance; stopping"
            )

    def release(self) -> None:
        """Give the lease up (a grant that has already expired), so the next contender need not wait."""
        if self._generation is not None:
            self._claim(self._generation + 1, 0.0)
            self._generation = None

    def _current(self) -> _Grant | None:
        rows = self.store.query(
            f"SELECT generation, owner, toString(expires_at), expires_at <= now64(3) "
            f"FROM {self.store.table(_TABLE)} WHERE name = {{name:String}} "
            "ORDER BY generation DESC, taken_at, owner LIMIT 1",
            {"name": self.name},
        )
        if not rows:
            return None
        generation, owner, expires_at, expired = rows[0]
        return _Grant(int(generation), str(owner), str(expires_at), bool(expired) or _gone(str(owner)))

    def _claim(self, generation: int, ttl: float) -> bool:
        """Insert grant ``generation`` for us (deduplicated per generation); return whether ours is the one kept."""
        self.store.command(
            f"INSERT INTO {self.store.table(_TABLE)} (name, generation, owner, taken_at, expires_at) "
            "VALUES ({name:String}, {generation:UInt64}, {owner:String}, now64(3), "
            "now64(3) + toIntervalMillisecond({ttl_ms:UInt64}))",
            {"name": self.name, "generation": generation, "owner": self.owner, "ttl_ms": int(ttl * 1000)},
            settings={"insert_deduplicate": 1, "insert_deduplication_token": f"{self.name}:{generation}"},
        )
        rows = self.store.query(
            f"SELECT owner FROM {self.store.table(_TABLE)} "
            "WHERE name = {name:String} AND generation = {generation:UInt64} ORDER BY taken_at, owner LIMIT 1",
            {"name": self.name, "generation": generation},
        )
        won = bool(rows) and rows[0][0] == self.owner
        if won and ttl > 0:
            self._generation = generation
            self._renewed_at = time.monotonic()
        return won


def _gone(owner: str) -> bool:
    """Return whether ``owner`` (``host:pid:token``, see ``Lease``) was a process of this host that no longer runs."""
    parts = owner.rsplit(":", 2)
    if len(parts) != 3 or parts[0] != socket.gethostname() or not parts[1].isdigit():
        return False
    try:
        os.kill(int(parts[1]), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, another user's
        return False
    return False
