"""A connection to the store: embedded chDB (``chdb:///path``) or a ClickHouse server (``http(s)://...``).

Everything goes through the clickhouse-connect Client API, so the SQL, parameters and migrations are the same on
both. User input never reaches SQL text: pass it as server-side parameters (``{name:Type}`` in the SQL).
Driver exceptions are translated here, where they enter: nothing above the store names a driver exception.
"""

from __future__ import annotations

import importlib
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from typing import Any, Protocol, cast

import clickhouse_connect
from clickhouse_connect.driver.client import Client
from clickhouse_connect.driver.exceptions import ClickHouseError, DatabaseError

from moraine.errors import ResourceExhaustedError, StoreError
from moraine.store.lease import Lease, create_lease_table
from moraine.store.limits import StatementLimits
from moraine.store.querytag import current_tag
from moraine.store.versions import seed_versions

logger = logging.getLogger("moraine.store")

__all__ = ["Migration", "Store"]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
# ClickHouse error codes that mean a memory, disk, row or byte limit was hit.
_LIMIT_CODES = {241, 158, 159, 160, 161, 243, 396, 307, 290, 202, 210}
_CODE = re.compile(r"Code: (\d+)")
# ClickHouse JIT-compiles an expression the third time it sees it. Query parameters are constants inside those
# expressions, so the compiled code is rarely reused, and the compiling call pays 20-40 ms: at 1M events it made one
# open(event) in ten take three times its usual 15 ms. Every read here is short; interpreting is cheaper.
_QUERY_SETTINGS = {
    "compile_expressions": 0,
    "compile_aggregate_expressions": 0,
    "compile_sort_description": 0,
}
# An embedded store's reads run on this process's cores, and a tool call already runs its independent reads at once
# on separate connections (BM25's, the vector side's, hydration's three): a read's own threads only competed with its
# siblings. Measured on a settled 1,000,000-record store, every tool case warm, default threads and one thread per
# read alternating twice: CPU per call lower in every case (3-term global search 82-88 -> 66-67 ms lexical, 138 ->
# 110-118 ms hybrid), its hybrid p50 89 -> 69-74 ms, 8 clients 56 -> 65-67 calls/s. A server keeps its own default.
_EMBEDDED_READ_SETTINGS = {"max_threads": 1}
# A migration holds its lease this long between renewals (008 copies whole tables in one statement each); another
# instance waits at most _MIGRATION_WAIT_SECONDS for it.
_MIGRATION_LEASE_SECONDS = 900.0
_MIGRATION_WAIT_SECONDS = 1800.0
# Writes made through the Stores of this process, by (dsn, database): see Store.write_generation.
_WRITES: dict[tuple[str, str], int] = {}
_WRITES_LOCK = threading.Lock()


@contextmanager
def _translate() -> Iterator[None]:
    try:
        yield
    except DatabaseError as exc:
        match = _CODE.search(str(exc))
        if match and int(match.group(1)) in _LIMIT_CODES:
            raise ResourceExhaustedError(f"ClickHouse limit reached: {_first_line(exc)}") from exc
        raise StoreError(f"ClickHouse error: {_first_line(exc)}") from exc
    except ClickHouseError as exc:
        raise StoreError(f"ClickHouse unavailable: {_first_line(exc)}") from exc
    except OSError as exc:
        raise StoreError(f"ClickHouse transport failure: {exc}") from exc


def _tagged(sql: str) -> str:
    """Return ``sql`` marked with the current call's tag (unchanged outside a tagged call)."""
    tag = current_tag.get()
    return sql if tag is None else tag.tagged(sql)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:300] if text else type(exc).__name__


class Store:
    """One database over a small pool of connections: calls from different threads run in parallel.

    A connection runs one statement at a time, so independent reads of one tool call (and the vector side of a
    hybrid search) are only concurrent on separate connections. The first connection opens at once (errors surface
    here); the others open when two or more statements are in flight. Every statement of every connection (reads,
    writes, migrations) runs under ``limits`` (the defaults when not given).
    """

    def __init__(
        self,
        dsn: str,
        database: str = "moraine",
        connections: int = 3,
        limits: StatementLimits | None = None,
    ) -> None:
        if not _IDENT.match(database):
            raise ValueError(f"database name {database!r} is not a plain identifier")
        self.dsn = dsn
        self.database = database
        self.embedded = dsn.startswith("chdb://")  # chDB in this process, not a ClickHouse server
        self.limits = limits or StatementLimits()
        self._lock = threading.Lock()
        self._settings: dict[str, Any] = dict(_QUERY_SETTINGS)
        if self.embedded:
            self._settings.update(_EMBEDDED_READ_SETTINGS)
        self._pool = threading.Condition()
        self._idle: list[Client] = [self._connect()]
        self._opened = 1
        self._limit = max(1, connections)

    def _connect(self) -> Client:
        with _translate():
            return clickhouse_connect.get_client(dsn=self.dsn, settings=self.limits.settings())

    @contextmanager
    def _connection(self) -> Iterator[Client]:
        """Lend an idle connection (opening one while under the limit, else waiting for one)."""
        with self._pool:
            while not self._idle and self._opened >= self._limit:
                self._pool.wait()
            client = self._idle.pop() if self._idle else None
            if client is None:
                self._opened += 1
        if client is None:
            try:
                client = self._connect()
            except BaseException:
                with self._pool:
                    self._opened -= 1
                    self._pool.notify()
                raise
        try:
            yield client
        finally:
            with self._pool:
                self._idle.append(client)
                self._pool.notify()

    def set_setting(self, name: str, value: Any) -> None:
        """Run every later query (read) of this store with a ClickHouse setting (benchmarks and diagnostics)."""
        self._settings[name] = value

    @property
    def write_generation(self) -> int | None:
        """A number that changes after every write to this database, or None when writes may go unseen.

        Only one process can open an embedded (chDB) store, so all its writes pass through the Stores of this
        process and are counted; a ClickHouse server may have other writers. Results derived from the data can be
        kept for as long as the number stays the same. It moves after a write returns (or fails), so a result
        computed while a write ran is kept under the number from before that write and is not reused after it.
        """
        return _WRITES.get((self.dsn, self.database), 0) if self.embedded else None

    @contextmanager
    def _writing(self) -> Iterator[Client]:
        try:
            with self._connection() as client, _translate():
                yield client
        finally:
            with _WRITES_LOCK:
                key = (self.dsn, self.database)
                _WRITES[key] = _WRITES.get(key, 0) + 1

    @classmethod
    def open(
        cls,
        dsn: str,
        database: str = "moraine",
        connections: int = 3,
        limits: StatementLimits | None = None,
    ) -> Store:
        """Connect, create the database if needed, apply pending migrations and seed the row-version counter."""
        store = cls(dsn, database, connections, limits)
        store.migrate()
        seed_versions(store)
        return store

    def table(self, name: str) -> str:
        """Return the qualified name of one of our tables (never user text)."""
        if not _IDENT.match(name):
            raise ValueError(f"table name {name!r} is not a plain identifier")
        return f"{self.database}.{name}"

    def query(
        self, sql: str, parameters: Mapping[str, Any] | None = None, settings: Mapping[str, Any] | None = None
    ) -> list[tuple[Any, ...]]:
        with self._connection() as client, _translate():
            result = client.query(
                _tagged(sql),
                parameters=dict(parameters or {}),
                settings={**self._settings, **(settings or {})},
            )
        return cast(list[tuple[Any, ...]], list(result.result_rows))  # the driver's rows are tuples

    def command(
        self, sql: str, parameters: Mapping[str, Any] | None = None, settings: Mapping[str, Any] | None = None
    ) -> None:
        with self._writing() as client:
            client.command(_tagged(sql), parameters=dict(parameters or {}), settings=dict(settings or {}))

    def insert(self, table: str, rows: Sequence[Sequence[Any]], column_names: Sequence[str]) -> None:
        if not rows:
            return
        with self._writing() as client:
            client.insert(self.table(table), list(rows), column_names=list(column_names))

    def insert_columns(
        self, table: str, columns: Sequence[Sequence[Any]], column_names: Sequence[str]
    ) -> None:
        """Insert column-oriented data (one sequence per column, all the same length): the fast path for batches."""
        if not columns or not columns[0]:
            return
        with self._writing() as client:
            client.insert(
                self.table(table), list(columns), column_names=list(column_names), column_oriented=True
            )

    def migrate(self, until: int | None = None) -> list[int]:
        """Apply the migrations not yet recorded in ``schema_migrations`` (those up to ``until`` when given); return
        the versions applied.

        Pending migrations run under the store's ``migrations`` lease (``moraine.store.lease``), so two instances
        on one ClickHouse server never run one at the same time; the second waits, then finds them applied.
        """
        with self._lock:
            self.command(f"CREATE DATABASE IF NOT EXISTS {self.database}")
            self.command(
                f"CREATE TABLE IF NOT EXISTS {self.table('schema_migrations')} "
                "(version UInt32, name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3)) "
                "ENGINE = MergeTree ORDER BY version"
            )
            if not self._pending_migrations(until):
                return []
            create_lease_table(self)
            lease = Lease(self, "migrations", ttl=_MIGRATION_LEASE_SECONDS)
            waited = time.monotonic()
            lease.acquire(wait=_MIGRATION_WAIT_SECONDS)
            logger.info("migrations lease taken in %.2f s", time.monotonic() - waited)
            try:
                applied = []
                # Listed again: another holder of the lease may have run some of them meanwhile.
                for version, name, migration in self._pending_migrations(until):
                    began = time.monotonic()
                    migration.apply(self, lease.keep)
                    self.insert("schema_migrations", [[version, name]], ["version", "name"])
                    applied.append(version)
                    logger.info(
                        "migration %03d %s applied in %.2f s", version, name, time.monotonic() - began
                    )
                return applied
            finally:
                lease.release()

    def _pending_migrations(self, until: int | None) -> list[tuple[int, str, Migration]]:
        done = {row[0] for row in self.query(f"SELECT version FROM {self.table('schema_migrations')}")}
        return [m for m in _migrations() if m[0] not in done and (until is None or m[0] <= until)]

    def close(self) -> None:
        """Close the connections (call it when no statement is in flight)."""
        with self._pool:
            idle, self._idle = self._idle, []
            self._opened -= len(idle)
        for client in idle:
            client.close()


class Migration(Protocol):
    """One step of the schema: a ``NNN_name.sql`` file's statements, or a ``NNN_name.py`` module's ``apply``."""

    def apply(self, store: Store, keep: Callable[[], None]) -> None:
        """Bring ``store`` to this version; call ``keep`` at least every few minutes (it renews the lease)."""


@dataclass(frozen=True, slots=True)
class _SqlMigration:
    text: str

    def apply(self, store: Store, keep: Callable[[], None]) -> None:
        for statement in _statements(self.text.replace("{db}", store.database)):
            keep()
            store.command(statement)


def _migrations() -> list[tuple[int, str, Migration]]:
    folder = resources.files("moraine.store") / "migrations"
    found: list[tuple[int, str, Migration]] = []
    for entry in folder.iterdir():
        match = re.match(r"^(\d{3})_(\w+)\.(sql|py)$", entry.name)
        if not match:
            continue
        version, name, kind = int(match.group(1)), match.group(2), match.group(3)
        if kind == "sql":
            found.append((version, name, _SqlMigration(entry.read_text(encoding="utf-8"))))
        else:  # a migration that copies data in steps (moraine.store.rebuild) is a module with apply()
            module = importlib.import_module(f"moraine.store.migrations.{version:03d}_{name}")
            found.append((version, name, cast(Migration, module)))
    return sorted(found, key=lambda migration: migration[0])


def _statements(text: str) -> list[str]:
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("--"))
    return [part.strip() for part in re.split(r"^\s*;\s*$", body, flags=re.M) if part.strip()]
