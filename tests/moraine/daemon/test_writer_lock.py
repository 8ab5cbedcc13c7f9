"""One writer per store: the lock is keyed on what the store is, not on how its DSN is spelled."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from moraine.daemon.writer_lock import StoreBusy, StoreWriterLock, store_identity


def test_one_server_is_one_store_whatever_the_credentials_and_spelling() -> None:
    same = {
        store_identity("http://alice:pw@DB.example:8123", "moraine"),
        store_identity("http://bob@db.example", "moraine"),
        store_identity("http://db.example:8123/?compress=1", "moraine"),
    }
    assert same == {"http://db.example:8123|moraine"}
    assert store_identity("https://db.example", "moraine") == "https://db.example:8443|moraine"
    assert store_identity("http://db.example:8123", "other") != store_identity(
        "http://db.example:8123", "moraine"
    )


def test_one_chdb_directory_is_one_store_whatever_the_path_spelling(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    assert store_identity(f"chdb://{tmp_path}/a/../store", "moraine") == store_identity(
        f"chdb://{tmp_path}/store", "moraine"
    )


def test_ingest_is_refused_with_the_daemons_pid_the_store_and_what_to_do(tmp_path: Path) -> None:
    dsn = "http://moraine:hunter2@db.example:8123"
    daemon = StoreWriterLock(tmp_path / "run", dsn, "moraine")
    daemon.acquire("daemon")
    try:
        with pytest.raises(StoreBusy) as refused:
            StoreWriterLock(tmp_path / "run", "http://other:pw@db.example", "moraine").acquire("ingest")
        message = str(refused.value)
        assert (
            f"the Moraine daemon (pid {os.getpid()}) owns the store http://other:***@db.example " in message
        )
        assert "(database moraine)" in message and ":pw@" not in message
        assert "moraine status" in message and f"kill {os.getpid()}" in message
    finally:
        daemon.release()
    ingest = StoreWriterLock(tmp_path / "run", dsn, "moraine")
    ingest.acquire("ingest")  # free again once the daemon let go
    try:
        with pytest.raises(StoreBusy, match=r"`moraine ingest` \(pid \d+\) is writing to the store"):
            StoreWriterLock(tmp_path / "run", dsn, "moraine").acquire("daemon")
    finally:
        ingest.release()


def test_two_databases_on_one_server_are_two_stores(tmp_path: Path) -> None:
    first = StoreWriterLock(tmp_path, "http://db.example:8123", "moraine")
    first.acquire("daemon")
    try:
        other = StoreWriterLock(tmp_path, "http://db.example:8123", "staging")
        other.acquire("ingest")
        other.release()
    finally:
        first.release()


def test_a_reader_is_told_who_holds_the_store_and_nothing_when_nobody_does(tmp_path: Path) -> None:
    dsn = f"chdb://{tmp_path}/store"
    reader = StoreWriterLock(tmp_path / "run", dsn, "moraine")
    assert reader.held_elsewhere() is None
    assert reader.held_elsewhere() is None  # looking did not take the lock
    for role, expected in (
        ("ingest", f"`moraine ingest` (pid {os.getpid()}) is writing to the store chdb:"),
        ("daemon", f"the Moraine daemon (pid {os.getpid()}) owns the store chdb:"),
    ):
        holder = StoreWriterLock(tmp_path / "run", dsn, "moraine")
        holder.acquire(role)
        try:
            told = reader.held_elsewhere()
        finally:
            holder.release()
        assert told is not None and expected in told, told
    assert "is not answering yet" in (told or "")
