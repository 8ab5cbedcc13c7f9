"""The daemon's network side: MCP over streamable HTTP on loopback, the HTTP facade, and the idle exit of a daemon
that a relay started."""

from __future__ import annotations

from collections.abc import Iterator

import anyio
import httpx2
import pytest
from daemon_support import DaemonHome, codex_turn, wait_for
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from moraine.daemon.state import pid_alive

UUID = "0196f100-0000-7000-8000-00000000eeee"


def _home() -> DaemonHome:
    home = DaemonHome()
    home.configure()
    home.seed_store()
    home.session_file(UUID).write_text(codex_turn(0, "Where is the narwhal cache?", "Under var/narwhal."))
    return home


@pytest.fixture
def home() -> Iterator[DaemonHome]:
    with _home() as home:
        yield home


@pytest.fixture(scope="module")
def served() -> Iterator[DaemonHome]:
    """A home whose ``moraine serve`` is ready and has indexed the trace (the tests using it only read)."""
    with _home() as home:
        home.serve()
        home.wait_ready()
        wait_for(lambda: home.health()["backfill"] == "done", 120, "the backfill")
        yield home


def test_mcp_over_http_and_the_facade_answer_from_the_same_store(served: DaemonHome) -> None:
    home = served
    state = home.state()
    assert state is not None
    base = f"http://127.0.0.1:{state.port}"

    async def main() -> tuple[list[str], dict[str, object], dict[str, object]]:
        async with httpx2.AsyncClient(timeout=60, headers=home.http_headers()) as http:
            async with Client(streamable_http_client(f"{base}/mcp", http_client=http)) as client:
                tools = sorted(t.name for t in (await client.list_tools()).tools)
                result = await client.call_tool("search_sessions", {"query": "narwhal"})
                assert result.structured_content is not None
                mcp_envelope = result.structured_content
            response = await http.post(f"{base}/v1/tools/search_sessions", json={"query": "narwhal"})
            assert response.status_code == 200
            return tools, mcp_envelope, response.json()

    tools, over_mcp, over_facade = anyio.run(main)
    assert tools == ["file_attention", "list_sessions", "open", "search_sessions"]
    assert over_mcp["data"]["result_count"] == over_facade["data"]["result_count"] == 2  # type: ignore[index]
    assert over_mcp["data"]["results"] == over_facade["data"]["results"]  # type: ignore[index]


def test_a_relay_started_daemon_exits_once_idle(home: DaemonHome) -> None:
    home.configure(idle_exit_seconds=5)

    async def one_agent() -> bool:
        async with Client(home.relay_params(), read_timeout_seconds=180) as client:
            result = await client.call_tool("search_sessions", {"query": "narwhal"})
            return result.is_error

    assert anyio.run(one_agent) is False
    [pid] = home.daemon_pids()
    wait_for(lambda: not pid_alive(pid), 60, "the idle daemon to exit")
    assert "no client for 5 s: exiting" in home.log_text()
    assert home.log_text().splitlines()[-1].endswith("stopped")


def test_the_daemon_lists_the_agents_found_here_for_the_web_page_behind_its_gate(served: DaemonHome) -> None:
    home = served
    state = home.state()
    assert state is not None
    url = f"http://127.0.0.1:{state.port}/v1/daemon/agents"
    refused = httpx2.get(url, timeout=60)
    answer = httpx2.get(url, headers=home.http_headers(), timeout=60)
    assert refused.status_code == 401
    assert answer.status_code == 200
    codex = [agent for agent in answer.json()["agents"] if agent["harness"] == "codex"]
    assert [(a["display_name"], a["sessions"], a["sources"]) for a in codex] == [("Codex", 1, ["codex"])]
    assert [a.sessions for a in home.report().agents if a.harness == "codex"] == [
        1
    ]  # what `moraine status` says
