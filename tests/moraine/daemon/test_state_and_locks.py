"""The daemon's small parts: the state file is replaced atomically, locks exclude other processes, settings check."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from moraine.config import Config
from moraine.daemon.locks import FileLock, LockTimeout
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.settings import daemon_settings
from moraine.daemon.state import DaemonState, read_state, remove_state, write_state
from moraine.errors import ConfigError

_HOLD = "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); sys.stdin.read()"


def _state(pid: int) -> DaemonState:
    return DaemonState(
        pid=pid,
        port=1234,
        socket="/run/x.sock",
        version="0.1.0",
        started_at="2026-11-29T00:00:00Z",
        ready=True,
    )


def test_state_round_trips_and_is_removed_only_by_its_own_daemon(tmp_path: Path) -> None:
    path = tmp_path / "daemon.json"
    write_state(path, _state(42))
    assert read_state(path) == _state(42)
    assert [p.name for p in tmp_path.iterdir()] == ["daemon.json"]  # no temporary file left behind
    remove_state(path, 7)
    assert read_state(path) == _state(42)
    remove_state(path, 42)
    assert read_state(path) is None


def test_a_torn_or_foreign_state_file_reads_as_no_daemon(tmp_path: Path) -> None:
    path = tmp_path / "daemon.json"
    path.write_text('{"pid": 4')
    assert read_state(path) is None
    path.write_text('{"pid": 4, "unexpected": true}')
    assert read_state(path) is None


def test_a_lock_held_by_another_process_is_seen_and_waited_for_with_a_deadline(tmp_path: Path) -> None:
    path = tmp_path / "spawn.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
        lock = FileLock(path)
        assert lock.held_elsewhere()
        assert not lock.try_acquire()
        with pytest.raises(LockTimeout):
            lock.acquire(timeout=0.2)
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(30)
    lock = FileLock(path)
    lock.acquire(timeout=5)  # the holder exited: the kernel released its lock
    assert not lock.held_elsewhere()
    lock.release()


def test_the_run_directory_is_user_only(tmp_path: Path) -> None:
    paths = DaemonPaths(tmp_path / "home")
    paths.prepare()
    os.chmod(paths.run_dir, 0o755)
    paths.prepare()
    assert paths.run_dir.stat().st_mode & 0o777 == 0o700
    assert paths.log_dir.is_dir()


def test_an_overlong_socket_path_is_reported_with_what_to_do(tmp_path: Path) -> None:
    paths = DaemonPaths(tmp_path / ("x" * 120))
    problem = paths.socket_path_problem()
    assert problem is not None and "MORAINE_HOME" in problem


def test_daemon_settings_default_and_reject_bad_values(tmp_path: Path) -> None:
    defaults = daemon_settings(Config(home=tmp_path, store_dsn="chdb:///x"))
    assert 1 <= defaults.max_concurrent <= 4 and defaults.max_queued == 32 and defaults.port == 0
    custom = daemon_settings(
        Config(home=tmp_path, store_dsn="chdb:///x", extra={"daemon": {"max_concurrent": 8, "port": 9000}})
    )
    assert (custom.max_concurrent, custom.port) == (8, 9000)
    with pytest.raises(ConfigError, match="daemon.max_queued must be an integer"):
        daemon_settings(Config(home=tmp_path, store_dsn="chdb:///x", extra={"daemon": {"max_queued": -1}}))
    with pytest.raises(ConfigError, match="daemon.workers is not a known setting"):
        daemon_settings(Config(home=tmp_path, store_dsn="chdb:///x", extra={"daemon": {"workers": 2}}))
