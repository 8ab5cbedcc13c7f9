"""One writer per store: the daemon holds this lock for life, ``moraine ingest`` for its run.

Two writers ingesting the same traces from the same checkpoints duplicate events. chDB's own directory lock stops a
second process on an embedded store, but a ClickHouse server accepts any number of clients, so the lock is keyed on
the store's identity, not on the process that opens it: ``$MORAINE_HOME/run/store-<hash>.lock``, where the hash
covers the store's location (the chDB directory, or the server's scheme, host and port; never the user or password)
and the database. The holder writes its pid and role into the file so the refusal can say who holds it.

It covers every process that uses the same Moraine home on this host (the daemon, ``moraine ingest``, a daemon a
relay starts). Two homes, or two hosts, writing to one ClickHouse server are not seen by it; migrations, the one
step that can lose rows when run twice at once, take a lease in the database itself (``moraine.store.lease``).
The lock is a ``flock``: the kernel drops it when its holder dies, so a crash never leaves a stale lock.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from moraine.config import Config
from moraine.daemon.locks import FileLock
from moraine.daemon.logmask import mask_credentials
from moraine.daemon.paths import DaemonPaths
from moraine.errors import StoreError
from moraine.private_files import restrict_process
from moraine.store.client import Store

__all__ = ["StoreBusy", "StoreWriterLock", "held_reason", "open_unless_held", "store_identity"]

_DEFAULT_PORTS = {"http": 8123, "https": 8443}


class StoreBusy(Exception):
    """Another process of this Moraine home is writing to the store; the message says who and what to do."""


def store_identity(dsn: str, database: str) -> str:
    """Return what names one store whatever the DSN's spelling: location and database, without credentials."""
    if dsn.startswith("chdb://"):
        directory = Path(dsn.removeprefix("chdb://").split("?", 1)[0]).expanduser()
        return f"chdb:{directory.resolve()}|{database}"
    url = urlsplit(dsn)
    scheme = url.scheme.lower()
    port = url.port or _DEFAULT_PORTS.get(scheme, 0)
    return f"{scheme}://{(url.hostname or '').lower()}:{port}|{database}"


def held_reason(config: Config) -> str | None:
    """Why ``config``'s embedded store cannot be opened by a one-shot command: the writer holding it and what to do
    (None for a ClickHouse server, which any number of clients open, or when no writer holds it)."""
    if not config.store_dsn.startswith("chdb://"):
        return None
    lock = StoreWriterLock(DaemonPaths(config.home).run_dir, config.store_dsn, config.database)
    return lock.held_elsewhere()


def open_unless_held(config: Config) -> Store:
    """Open ``config``'s store for a one-shot command (user-only files), unless a writer holds it.

    Raises:
        StoreError: a writer holds it (the message names it and what to do), or it cannot be opened.
    """
    restrict_process()  # opening an embedded store may create its files: user-only
    held = held_reason(config)  # before chDB prints its own lock error
    if held is not None:
        raise StoreError(held)
    return Store.open(config.store_dsn, config.database, limits=config.store_limits)


@dataclass(frozen=True, slots=True)
class _Holder:
    pid: int
    role: str


class StoreWriterLock:
    """The writer lock of one store (``dsn`` + ``database``) for the processes of one Moraine home."""

    def __init__(self, run_dir: Path, dsn: str, database: str) -> None:
        digest = hashlib.sha256(store_identity(dsn, database).encode()).hexdigest()[:20]
        self.path = run_dir / f"store-{digest}.lock"
        self.dsn = dsn
        self.database = database
        self._lock = FileLock(self.path)

    def acquire(self, role: str) -> None:
        """Take the lock as ``role`` ("daemon" or "ingest") without waiting.

        Raises:
            StoreBusy: another process holds it (the message names its pid and what to do).
        """
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not self._lock.try_acquire():
            raise StoreBusy(self._refusal(role, self._holder()))
        self.path.write_text(json.dumps({"pid": os.getpid(), "role": role}), encoding="utf-8")

    def release(self) -> None:
        self._lock.release()

    def held_elsewhere(self) -> str | None:
        """Why a one-shot command cannot open the store, when a writer holds it (None when nobody does).

        An embedded store opens in one process at a time, so a command that reads it fails while ``moraine ingest``
        (or a daemon not yet answering) writes to it; this names the holder and what to do, where chDB's own error
        says only that the directory is locked."""
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if self._lock.try_acquire():
            self._lock.release()
            return None
        return self._refusal("read", self._holder())

    def _holder(self) -> _Holder | None:
        try:
            raw: Any = json.loads(self.path.read_text(encoding="utf-8"))
            return _Holder(pid=int(raw["pid"]), role=str(raw["role"]))
        except (OSError, ValueError, TypeError, KeyError):
            return None  # the holder is between taking the lock and writing its pid

    def _refusal(self, role: str, holder: _Holder | None) -> str:
        store = f"{mask_credentials(self.dsn)} (database {self.database})"
        pid = f"pid {holder.pid}" if holder else "pid unknown"
        if holder is None or holder.role == "daemon":
            who = f"the Moraine daemon ({pid}) owns the store {store}"
            if role == "ingest":
                return (
                    f"{who} and ingests every enabled source itself; a second writer would index the same files "
                    "twice. Let the daemon do it (`moraine status` shows its progress), or stop it "
                    f"(kill {holder.pid if holder else '<pid>'}) and run `moraine ingest` again."
                )
            if role == "read":
                return f"{who} and is not answering yet; try again once `moraine status` shows it ready."
            return f"{who}; stop it first (kill {holder.pid if holder else '<pid>'})."
        return (
            f"`moraine ingest` ({pid}) is writing to the store {store}; wait for it to finish, or stop it "
            f"(kill {holder.pid}), then try again."
        )
