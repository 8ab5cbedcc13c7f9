"""Find the running daemon or start one, race-free: check, then under an exclusive spawn lock check again and spawn.

Ten agents starting at once all take the spawn lock in turn; the first spawns and waits for readiness while holding
it, the others then find the daemon ready. Every wait is bounded; a daemon that fails to start is reported with the
tail of its log.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from moraine.child_env import child_command
from moraine.daemon.client import DaemonUnreachable, health
from moraine.daemon.locks import FileLock, LockTimeout
from moraine.daemon.logs import log_tail
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.state import DaemonState, pid_alive, read_state

__all__ = ["DaemonStartError", "ensure_daemon", "live_state"]

_POLL_SECONDS = 0.05


class DaemonStartError(Exception):
    """The daemon could not be started or did not become ready in time; the message says why and what to do."""


def live_state(paths: DaemonPaths) -> DaemonState | None:
    """Return the state of a ready daemon that answers on its socket, else None."""
    state = read_state(paths.state)
    if state is None or not state.ready or not pid_alive(state.pid):
        return None
    try:
        answer = health(Path(state.socket))
    except DaemonUnreachable:
        return None
    return state if answer.get("pid") == state.pid else None


def ensure_daemon(paths: DaemonPaths, timeout: float, config_path: Path | None = None) -> DaemonState:
    """Return the running daemon's state, starting the daemon in the background when none is running.

    Raises:
        DaemonStartError: it did not become ready within ``timeout`` seconds (the message quotes its log).
    """
    state = live_state(paths)
    if state is not None:
        return state
    paths.prepare()
    deadline = time.monotonic() + timeout
    spawn_lock = FileLock(paths.spawn_lock)
    try:
        spawn_lock.acquire(timeout)
    except LockTimeout as exc:
        raise DaemonStartError(f"another process has been starting the daemon for {timeout:.0f} s") from exc
    try:
        state = live_state(paths)
        if state is not None:
            return state
        process = None
        if not FileLock(paths.owner_lock).held_elsewhere():
            process = _spawn(paths, config_path)
        return _wait_ready(paths, process, deadline, timeout)
    finally:
        spawn_lock.release()


def _spawn(paths: DaemonPaths, config_path: Path | None) -> subprocess.Popen[bytes]:
    """Start ``moraine serve --spawned`` detached, its output appended to the daemon log."""
    env = dict(os.environ)
    if config_path is not None:
        env["MORAINE_CONFIG"] = str(config_path.absolute())
    with paths.log.open("ab") as log:
        return subprocess.Popen(
            child_command("moraine.daemon", "--spawned"),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            cwd=paths.home,
            env=env,
            start_new_session=True,
            close_fds=True,
        )


def _wait_ready(
    paths: DaemonPaths, process: subprocess.Popen[bytes] | None, deadline: float, timeout: float
) -> DaemonState:
    while True:
        state = live_state(paths)
        if state is not None:
            return state
        if process is not None and process.poll() is not None:
            raise DaemonStartError(
                f"the Moraine daemon exited with status {process.returncode} before it was ready. "
                f"Last lines of {paths.log}:\n{log_tail(paths.log)}\n"
                "Run `moraine doctor` for a diagnosis, or `moraine serve` to see the failure directly."
            )
        if time.monotonic() >= deadline:
            raise DaemonStartError(
                f"the Moraine daemon was not ready within {timeout:.0f} s. Last lines of {paths.log}:\n"
                f"{log_tail(paths.log)}\nRun `moraine doctor`; raise [daemon] start_timeout_seconds if the store "
                "is slow to open."
            )
        time.sleep(_POLL_SECONDS)  # readiness is a file plus a socket answer: poll within the deadline
