"""A throwaway Moraine home for daemon tests: Codex traces where the default source finds them, the daemon's
processes found through its log and state file, and a teardown that stops every daemon the test started."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp import StdioServerParameters

from fixtures.migrated_store import seed_migrated_store
from moraine.daemon.client import DaemonUnreachable, health
from moraine.daemon.report import StoreReport, fetch_report
from moraine.daemon.state import DaemonState, pid_alive, read_state

__all__ = ["MORAINE", "DaemonHome", "codex_turn", "wait_for"]

MORAINE = Path(sys.executable).with_name("moraine")
START_TIMEOUT = 120.0

# Homes are named for this test process, so its teardown stops only its own daemons, never those of another
# pytest run on the same machine (tests/conftest.py).
HOME_PREFIX = f"mdt{os.getpid()}-"


def wait_for(condition: Any, timeout: float, what: str, every: float = 0.05) -> Any:
    """Return ``condition()``'s first truthy value, polling until ``timeout`` (then fail naming ``what``)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(every)


def codex_turn(index: int, user_text: str, agent_text: str) -> str:
    """Return the JSONL lines of one complete Codex turn (user message, answer, task_complete)."""
    base = 1_777_000_000 + index * 10
    stamp = lambda k: time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(base + k)) + ".000Z"  # noqa: E731
    records = [
        {
            "timestamp": stamp(0),
            "type": "turn_context",
            "payload": {"turn_id": f"t{index}", "cwd": "/work/app"},
        },
        {
            "timestamp": stamp(1),
            "type": "event_msg",
            "payload": {"type": "user_message", "message": user_text},
        },
        {
            "timestamp": stamp(2),
            "type": "event_msg",
            "payload": {"type": "agent_message", "message": agent_text},
        },
        {
            "timestamp": stamp(3),
            "type": "event_msg",
            "payload": {"type": "task_complete", "last_agent_message": agent_text},
        },
    ]
    return "".join(json.dumps(r) + "\n" for r in records)


@dataclass
class DaemonHome:
    """``HOME`` and ``MORAINE_HOME`` in a short temporary directory (AF_UNIX paths are short)."""

    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix=HOME_PREFIX, dir="/tmp")))
    started: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @property
    def moraine_home(self) -> Path:
        return self.root / ".moraine"

    @property
    def sessions(self) -> Path:
        return self.root / ".codex" / "sessions" / "2026" / "04" / "30"

    @property
    def env(self) -> dict[str, str]:
        env = {
            "HOME": str(self.root),
            "MORAINE_HOME": str(self.moraine_home),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        }
        if "PYTHONPATH" in os.environ:  # a checkout run with PYTHONPATH runs its own code in the children too
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        # The translated redaction ruleset is cached there (tests/conftest.py); without it, every daemon and
        # `moraine ingest` of a test home rebuilt it under the home's own ~/.cache (7 to 20 s each).
        if "XDG_CACHE_HOME" in os.environ:
            env["XDG_CACHE_HOME"] = os.environ["XDG_CACHE_HOME"]
        return env

    def configure(self, semantic: bool = False, **daemon: Any) -> None:
        """Write ``config.toml`` with a ``[daemon]`` table (idle exit off unless given), fast rescans, and semantic
        recall off unless ``semantic``: a daemon with it on loads the embedding model twice (the query model, and
        the passage process) and embeds its whole backlog in the background, seconds of CPU taken from the test
        beside it. Semantic recall has its own tests (``tests/moraine/semantic/``, the bench); the live-load test
        keeps it on, as a default install runs."""
        daemon.setdefault("idle_exit_seconds", 0)
        lines = [
            "[daemon]",
            *(f"{k} = {json.dumps(v)}" for k, v in daemon.items()),
            *([] if semantic else ["[semantic]", "enabled = false"]),
            "[ingest]",  # last: tests append [ingest] keys
            "rescan_seconds = 5",
        ]
        self.moraine_home.mkdir(parents=True, exist_ok=True)
        (self.moraine_home / "config.toml").write_text("\n".join(lines) + "\n")

    def seed_store(self) -> None:
        """Start from a migrated, empty store (``fixtures.migrated_store``): for tests that do not test migrating."""
        seed_migrated_store(self.moraine_home)

    def session_file(self, uuid: str) -> Path:
        self.sessions.mkdir(parents=True, exist_ok=True)
        return self.sessions / f"rollout-2026-04-30T10-00-00-{uuid}.jsonl"

    def relay_params(self, cwd: Path | None = None) -> StdioServerParameters:
        return StdioServerParameters(
            command=str(MORAINE), args=["mcp"], env=self.env, cwd=str(cwd or self.root)
        )

    def serve(self) -> subprocess.Popen[bytes]:
        """Start ``moraine serve`` in the foreground of a child process (its output goes to the log)."""
        self.moraine_home.mkdir(parents=True, exist_ok=True)
        with (self.root / "serve.out").open("ab") as out:
            process = subprocess.Popen(
                [str(MORAINE), "serve"],
                env=self.env,
                cwd=self.root,
                stdout=out,
                stderr=out,
                stdin=subprocess.DEVNULL,
            )
        self.started.append(process)
        return process

    def state(self) -> DaemonState | None:
        return read_state(self.moraine_home / "run" / "daemon.json")

    def wait_ready(self, timeout: float = START_TIMEOUT) -> DaemonState:
        def ready() -> DaemonState | None:
            state = self.state()
            if state is None or not pid_alive(state.pid):
                return None
            try:
                return state if health(Path(state.socket))["pid"] == state.pid else None
            except DaemonUnreachable:
                return None

        state: DaemonState = wait_for(
            ready, timeout, f"the daemon in {self.moraine_home} to be ready", every=0.1
        )
        return state

    def http_headers(self) -> dict[str, str]:
        """Return the headers a loopback TCP client needs: the install's secret as a bearer token."""
        secret = (self.moraine_home / "run" / "http-secret").read_text().strip()
        return {"Authorization": f"Bearer {secret}"}

    def health(self) -> dict[str, Any]:
        state = self.state()
        assert state is not None, "no daemon state file"
        return health(Path(state.socket))

    def report(self) -> StoreReport:
        state = self.state()
        assert state is not None, "no daemon state file"
        return fetch_report(Path(state.socket), 10)

    def log_text(self) -> str:
        log = self.moraine_home / "logs" / "daemon.log"
        return log.read_text(errors="replace") if log.exists() else ""

    def daemon_pids(self) -> list[int]:
        """Return the pid of every daemon that started serving this home (from its log)."""
        pids = []
        for line in self.log_text().splitlines():
            if "moraine.daemon: starting (pid " in line:
                pids.append(int(line.split("starting (pid ", 1)[1].split(",", 1)[0]))
        return pids

    def live_daemon_pids(self) -> list[int]:
        """The daemons of this home still running: a logged pid the system has since given to another process is
        left out, so cleaning up never signals someone else's process."""
        return [pid for pid in self.daemon_pids() if self._serves_this_home(pid)]

    def _serves_this_home(self, pid: int) -> bool:
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            return False
        return f"MORAINE_HOME={self.moraine_home}".encode() in environ

    def kill_daemons(self, sig: int = signal.SIGKILL) -> None:
        for pid in self.live_daemon_pids():
            os.kill(pid, sig)

    def __enter__(self) -> DaemonHome:
        return self

    def __exit__(self, *_: object) -> None:
        self.cleanup()

    def cleanup(self) -> None:
        """Stop every daemon of this home (TERM, then KILL after a bounded wait) and remove the directory."""
        pids = self.live_daemon_pids()
        for pid in pids:
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for process in self.started:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
        for pid in pids:
            while pid_alive(pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            if pid_alive(pid):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(self.root, ignore_errors=True)
