"""``moraine forget`` with the daemon running goes through it: the session leaves search, stays out while its
trace file grows, ``moraine status`` counts it; the web page's route refuses a selection that changed."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator

import httpx2
import pytest
from daemon_support import MORAINE, DaemonHome, codex_turn, wait_for

FORGOTTEN = "0196f200-0000-7000-8000-0000000000f1"
KEPT = "0196f200-0000-7000-8000-0000000000f2"


@pytest.fixture(scope="module")
def home() -> Iterator[DaemonHome]:
    home = DaemonHome()
    home.configure()
    home.seed_store()  # migrating is not what this tests
    home.session_file(FORGOTTEN).write_text(
        codex_turn(0, "Where is the quokkaforget ledger?", "In quokka.csv.")
    )
    home.session_file(KEPT).write_text(codex_turn(1, "Where is the wombatkeep ledger?", "In wombat.csv."))
    try:
        home.serve()
        home.wait_ready()
        wait_for(lambda: home.health()["backfill"] == "done", 120, "the backfill")
        yield home
    finally:
        home.cleanup()


def _moraine(home: DaemonHome, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**home.env, "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    return subprocess.run(
        [str(MORAINE), *args], env=env, cwd=home.root, capture_output=True, text=True, timeout=400
    )


def _hits(home: DaemonHome, query: str) -> int:
    found = _moraine(home, "search", query, "--json")
    assert found.returncode == 0, found.stderr
    return found.stdout.count('"session_id"')


def test_forget_through_the_daemon_removes_the_session_and_keeps_it_out(home: DaemonHome) -> None:
    assert _hits(home, "quokkaforget") >= 1 and _hits(home, "wombatkeep") >= 1
    forgot = _moraine(home, "forget", "--path", str(home.session_file(FORGOTTEN)))
    assert forgot.returncode == 0, forgot.stderr
    assert "forgot 1 session(s)" in forgot.stdout
    assert _hits(home, "quokkaforget") == 0 and _hits(home, "wombatkeep") >= 1
    with home.session_file(FORGOTTEN).open("a") as trace:  # the agent goes on in the forgotten session
        trace.write(codex_turn(2, "And the quokkaappended ledger?", "Also in quokka.csv."))
    # Then the kept one: once its new turn is found, a pass has seen both files.
    with home.session_file(KEPT).open("a") as trace:
        trace.write(codex_turn(3, "And the wombatappended ledger?", "Also in wombat.csv."))
    wait_for(lambda: _hits(home, "wombatappended") >= 1, 60, "the kept session's new turn")
    assert _hits(home, "quokkaappended") == 0
    status = _moraine(home, "status")
    assert "forgotten: 1 session(s) held back from ingest" in status.stdout, status.stdout


def test_the_forget_route_refuses_a_selection_that_changed_and_needs_the_secret(home: DaemonHome) -> None:
    state = home.state()
    assert state is not None
    url = f"http://127.0.0.1:{state.port}/v1/daemon/forget"
    body = {"criteria": {"harness": "codex"}, "expect": 99}
    assert httpx2.post(url, json=body, timeout=60).status_code == 401
    changed = httpx2.post(url, json=body, headers=home.http_headers(), timeout=60)
    assert changed.status_code == 409 and "not the 99 confirmed" in changed.json()["detail"]
    preview = httpx2.post(
        url, json={"criteria": {"harness": "codex"}}, headers=home.http_headers(), timeout=60
    )
    assert (
        preview.status_code == 200 and len(preview.json()["sessions"]) == 1
    )  # only the kept session is left
    assert _hits(home, "wombatkeep") >= 1  # a preview forgets nothing
