"""The daemon from the command line: user-only socket, one daemon per home, status/doctor through the running
daemon, clean SIGTERM shutdown, and a daemon that cannot start explained to the agent with its log tail."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from daemon_support import MORAINE, DaemonHome, codex_turn, wait_for
from mcp import Client

UUID = "0196f000-0000-7000-8000-00000000dddd"


@pytest.fixture
def home() -> Iterator[DaemonHome]:
    home = DaemonHome()
    home.configure()
    home.seed_store()
    home.session_file(UUID).write_text(
        codex_turn(0, "Why is the zebrafish build red?", "A missing lockfile.")
    )
    try:
        yield home
    finally:
        home.cleanup()


def _moraine(home: DaemonHome, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(MORAINE), *args], env=home.env, cwd=home.root, capture_output=True, text=True, timeout=300
    )


def test_the_running_daemon_serves_status_and_doctor_and_refuses_a_second_daemon(home: DaemonHome) -> None:
    daemon = home.serve()
    state = home.wait_ready()
    wait_for(lambda: home.health()["backfill"] == "done", 120, "the backfill")
    socket_mode = Path(state.socket).stat().st_mode
    assert stat.S_ISSOCK(socket_mode) and stat.S_IMODE(socket_mode) == 0o600
    assert stat.S_IMODE(Path(state.socket).parent.stat().st_mode) == 0o700
    assert state.port > 0

    status = _moraine(home, "status")
    assert status.returncode == 0, status.stderr
    codex_row = next(line for line in status.stdout.splitlines() if line.strip("│ ").startswith("codex "))
    assert "codex" in codex_row and " 1 " in codex_row
    progress = home.health()["backfill_progress"]
    assert progress["state"] == "done" and progress["files_done"] == progress["files_total"] == 1
    assert "backfill (done): 1/1 files · " in status.stdout

    doctor = _moraine(home, "doctor")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert f"daemon: running (pid {state.pid}" in doctor.stdout
    assert "store: served by the daemon: 1 sessions" in doctor.stdout

    second = _moraine(home, "serve")
    assert second.returncode == 1
    assert f"already running for {home.moraine_home} (pid {state.pid}" in second.stderr

    daemon.send_signal(signal.SIGTERM)
    assert daemon.wait(60) == 0
    assert not Path(state.socket).exists()
    assert home.state() is None
    assert home.log_text().splitlines()[-1].endswith("stopped")


def test_the_terminal_commands_answer_through_the_running_daemon(home: DaemonHome) -> None:
    home.serve()
    home.wait_ready()
    wait_for(lambda: home.health()["backfill"] == "done", 120, "the backfill")
    # The daemon holds the store's exclusive lock: these commands can only be answered through its socket.
    env = {**home.env, "PYTHONPATH": os.environ.get("PYTHONPATH", "")}

    def moraine(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(MORAINE), *args], env=env, cwd=home.root, capture_output=True, text=True, timeout=300
        )

    found = moraine("search", "zebrafish", "--json")
    assert found.returncode == 0, found.stderr
    hit = json.loads(found.stdout)["data"]["results"][0]
    assert hit["snippet"]["text"] == "Why is the zebrafish build red?"
    session_id = hit["open"]["session_id"]
    opened = moraine("open", session_id, "--limit", "5")
    assert opened.returncode == 0, opened.stderr
    assert "1 turns, " in opened.stdout and "A missing lockfile." in opened.stdout
    listed = moraine("sessions", "--since", "2026-04-01T00:00:00Z", "--until", "2026-05-01T00:00:00Z")
    assert session_id in listed.stdout
    exported = moraine("export", session_id)
    assert exported.returncode == 0, exported.stderr
    assert "**User**\n\nWhy is the zebrafish build red?" in exported.stdout
    assert "**Assistant**\n\nA missing lockfile." in exported.stdout
    missing = moraine("open", "session:not-an-id")
    assert missing.returncode == 1 and "invalid_id" in missing.stderr


def test_a_daemon_that_cannot_start_is_explained_with_its_log_tail(home: DaemonHome) -> None:
    config = home.moraine_home / "config.toml"
    config.write_text(config.read_text() + '[store]\ndsn = "http://127.0.0.1:1"\n')

    async def call() -> tuple[bool, dict[str, str]]:
        async with Client(home.relay_params(), read_timeout_seconds=300) as client:
            result = await client.call_tool("search_sessions", {"query": "zebrafish"})
            return result.is_error, (result.structured_content or {}).get("error", {})

    is_error, error = anyio.run(call)
    assert is_error
    assert error["code"] == "backend_failure"
    assert "exited with status 1 before it was ready" in error["message"]
    assert "127.0.0.1" in error["message"]  # the log tail names the store that did not open
    assert "moraine doctor" in error["message"]

    doctor = _moraine(home, "doctor")
    assert doctor.returncode == 1
    assert "[FAIL] store: http://127.0.0.1:1 does not open" in doctor.stdout
    assert "-> check [store] dsn" in doctor.stdout
