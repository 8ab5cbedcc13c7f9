"""Ten agents start ``moraine mcp`` at once with no daemon running: exactly one daemon starts, all ten get answers."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from daemon_support import DaemonHome, codex_turn, wait_for
from mcp import Client

CLIENTS = 10
UUID = "0196b000-0000-7000-8000-00000000aaaa"


@pytest.fixture
def home() -> Iterator[DaemonHome]:
    home = DaemonHome()
    home.configure()
    home.session_file(UUID).write_text(
        codex_turn(0, "Where does the quokkaflux migration live?", "In db/migrations/0042_quokkaflux.sql.")
        + codex_turn(1, "Rename the table.", "Renamed it.")
    )
    try:
        yield home
    finally:
        home.cleanup()


async def _agent(home: DaemonHome, cwd: Path, results: dict[int, Any], index: int) -> None:
    async with Client(home.relay_params(cwd), read_timeout_seconds=180) as client:
        tools = await client.list_tools()
        search = None
        for _ in range(600):  # the daemon backfills in the background: ask again until the trace is indexed
            search = await client.call_tool("search_sessions", {"query": "quokkaflux"})
            if search.structured_content and search.structured_content.get("data", {}).get("result_count"):
                break
            await anyio.sleep(0.1)
        attention = await client.call_tool("file_attention", {"path": "src/app.py", "scope": "all"})
        results[index] = (sorted(t.name for t in tools.tools), search, attention)


def test_ten_agents_at_once_start_exactly_one_daemon_and_all_get_answers(home: DaemonHome) -> None:
    home.seed_store()  # migrating is not what this tests (the log test below starts on a fresh store)
    results: dict[int, Any] = {}
    cwds = []
    for index in range(CLIENTS):
        cwd = home.root / f"agent{index}"
        cwd.mkdir()
        cwds.append(cwd)

    async def main() -> None:
        with anyio.fail_after(300):
            async with anyio.create_task_group() as group:
                for index in range(CLIENTS):
                    group.start_soon(_agent, home, cwds[index], results, index)

    anyio.run(main)
    assert len(results) == CLIENTS
    for index, (tools, search, attention) in results.items():
        assert tools == ["file_attention", "list_sessions", "open", "search_sessions"]
        assert search is not None and search.is_error is False
        data = search.structured_content["data"]
        assert data["result_count"] >= 1
        assert data["results"][0]["session"]["id"].startswith("session:ses_")
        assert attention.is_error is False
        # relative paths resolve from each agent's own launch directory
        assert attention.structured_content["data"]["stripped_root"] == str(cwds[index])
    pids = home.daemon_pids()
    assert len(pids) == 1, f"expected one daemon, the log shows {pids}"
    assert "already running" not in home.log_text()
    state = home.state()
    assert state is not None and state.pid == pids[0]


_HOLD = """
import sys
from moraine.store.client import Store
store = Store.open(sys.argv[1], "moraine")
print("held", flush=True)
sys.stdin.readline()
store.close()
"""


def test_a_daemon_started_while_a_cli_call_holds_the_embedded_store_waits_for_it(home: DaemonHome) -> None:
    # What `moraine search` does with no daemon up: it opens the embedded store itself, for a second or two.
    home.seed_store()  # migrating is not what this tests: the holder opens a migrated store, as a user's would be
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, f"chdb://{home.moraine_home / 'store'}"],
        env=home.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        daemon = home.serve()

        def met() -> bool:
            return "the store cannot be opened yet" in home.log_text() or daemon.poll() is not None

        wait_for(met, 60, "the daemon to meet the held store")
        assert daemon.poll() is None, home.log_text()[-2000:]  # still starting, not failed
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(30)
    state = home.wait_ready()
    assert state.pid == daemon.pid
    assert home.daemon_pids() == [daemon.pid]


def test_the_log_times_each_start_up_phase_before_ready(home: DaemonHome) -> None:
    import re

    home.serve()
    home.wait_ready()

    def ready_log() -> str | None:
        text = home.log_text()
        return text if "ready in " in text else None

    log = wait_for(ready_log, 60, "the ready line")
    phases = re.findall(r"start-up: (.+?) in (\d+\.\d\d) s", log)
    assert [name for name, _ in phases] == [
        "home secured",
        "locks taken",
        "store opened and migrated",
        "read connections opened",
        "listeners bound and ingest prepared",
        "semantic recall started",
        "tools loaded",
        "HTTP server started",
    ]
    total = float(re.search(r"ready in (\d+\.\d\d) s", log).group(1))  # type: ignore[union-attr]
    assert sum(float(seconds) for _, seconds in phases) <= total + 0.05
    assert log.index("start-up: HTTP server started") < log.index("ready in ")
    # inside "store opened and migrated": the lease wait and each migration of a fresh store, timed
    assert "migrations lease taken in " in log and re.search(
        r"migration 001 initial applied in \d+\.\d\d s", log
    )
