"""Killing the daemon (SIGKILL) while it ingests, then restarting it, loses nothing and duplicates nothing: the store
ends up with exactly what one clean ``moraine ingest`` of the same files produces."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import threading
from collections.abc import Iterator

import pytest
from daemon_support import MORAINE, DaemonHome, codex_turn, wait_for

FILES = [f"0196e000-0000-7000-8000-0000000000{n:02d}" for n in range(3)]
SEED_TURNS = 600
COUNTED = ("events", "postings", "touches", "sessions", "turns", "checkpoints", "ingest_errors")
_COUNTS = (
    "import json; from moraine.config import load_config; from moraine.store.client import Store; "
    "from moraine.store.status import table_counts; c = load_config(); s = Store.open(c.store_dsn, c.database); "
    "print(json.dumps(table_counts(s))); s.close()"
)


@pytest.fixture
def homes() -> Iterator[tuple[DaemonHome, DaemonHome]]:
    killed, clean = DaemonHome(), DaemonHome()
    for home in (killed, clean):
        home.configure()
        home.seed_store()
        text = (home.moraine_home / "config.toml").read_text()
        (home.moraine_home / "config.toml").write_text(text + "batch_size = 100\n")
    for uuid in FILES:
        killed.session_file(uuid).write_text(
            "".join(
                codex_turn(i, f"edit src/mod{i % 7}.py for ticket {i}", f"patched src/mod{i % 7}.py")
                for i in range(SEED_TURNS)
            )
        )
    try:
        yield killed, clean
    finally:
        killed.cleanup()
        clean.cleanup()


def test_sigkill_mid_ingest_then_restart_loses_and_duplicates_nothing(
    homes: tuple[DaemonHome, DaemonHome],
) -> None:
    home, clean = homes
    stop = threading.Event()

    def keep_appending() -> None:
        turn = SEED_TURNS
        while not stop.wait(0.02):
            turn += 1
            with home.session_file(FILES[turn % len(FILES)]).open("a", encoding="utf-8") as handle:
                handle.write(codex_turn(turn, f"appended line {turn}", f"ok {turn}"))

    daemon = home.serve()
    writer = threading.Thread(target=keep_appending, daemon=True)
    writer.start()
    try:
        home.wait_ready()
        events_at_kill = wait_for(lambda: home.report().counts["events"], 120, "the first published batch")
        daemon.send_signal(signal.SIGKILL)
        assert daemon.wait(30) == -signal.SIGKILL
    finally:
        stop.set()
        writer.join(10)

    restarted = home.serve()
    home.wait_ready()
    wait_for(lambda: home.health()["backfill"] == "done", 300, "the backfill after the restart")
    after = home.report().counts
    restarted.send_signal(signal.SIGTERM)
    assert restarted.wait(60) == 0
    assert "stopped" in home.log_text().splitlines()[-1]

    shutil.copytree(home.root / ".codex", clean.root / ".codex")
    subprocess.run(
        [str(MORAINE), "ingest"], env=clean.env, cwd=clean.root, check=True, capture_output=True, timeout=600
    )
    expected = json.loads(
        subprocess.run(
            [str(MORAINE.with_name("python")), "-c", _COUNTS],
            env=clean.env,
            cwd=clean.root,
            check=True,
            capture_output=True,
            text=True,
            timeout=300,
        ).stdout
    )
    assert 0 < events_at_kill < expected["events"], "the kill did not land mid-ingest"
    assert {k: after[k] for k in COUNTED} == {k: expected[k] for k in COUNTED}
