"""Cancellation over the relay: a cancelled call's query stops and the call gets no response; a client that goes
away cancels its work (over the relay or the HTTP facade); a clean EOF on stdin lets an admitted call finish and be
answered."""

from __future__ import annotations

import json
import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import mcp_types
import pytest
from daemon_support import MORAINE, DaemonHome, codex_turn, wait_for

HARNESS = Path(__file__).with_name("slow_daemon.py")
UUID = "0196d000-0000-7000-8000-00000000cccc"
STOP_BOUND = 10.0  # the endless query runs for a day unless it is killed


class RawRelay:
    """``moraine mcp`` driven with raw JSON-RPC lines, so every message it writes can be inspected."""

    def __init__(self, home: DaemonHome) -> None:
        self.process = subprocess.Popen(
            [str(MORAINE), "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=home.env,
            cwd=home.root,
        )
        self.messages: list[dict[str, Any]] = []
        self._lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            message = json.loads(line)
            self.messages.append(message)
            self._lines.put(message)
        self._lines.put(None)

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
        self.process.stdin.flush()

    def response(self, request_id: int, timeout: float = 120.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            for message in self.messages:
                if message.get("id") == request_id and ("result" in message or "error" in message):
                    return message
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no response to request {request_id} within {timeout:.0f} s"
            try:
                if self._lines.get(timeout=remaining) is None:
                    raise AssertionError(f"the relay closed stdout without answering request {request_id}")
            except queue.Empty:
                continue

    def initialize(self) -> None:
        self.send(
            {
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": mcp_types.LATEST_PROTOCOL_VERSION,
                    "capabilities": {},
                    "clientInfo": {"name": "raw-test", "version": "0"},
                },
            }
        )
        assert "result" in self.response(1)
        self.send({"method": "notifications/initialized"})

    def call(self, request_id: int, query: str) -> None:
        arguments = {"query": query}
        self.send(
            {
                "id": request_id,
                "method": "tools/call",
                "params": {"name": "search_sessions", "arguments": arguments},
            }
        )

    def close_stdin(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()

    def wait(self, timeout: float = 60.0) -> int:
        code = self.process.wait(timeout)
        self._reader.join(timeout)
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(30)


@pytest.fixture(scope="module")
def served() -> Iterator[DaemonHome]:
    """The slow daemon of a throwaway home, ready and backfilled, shared by the module's tests."""
    home = DaemonHome()
    home.configure(max_concurrent=2, max_queued=4)
    home.seed_store()
    home.session_file(UUID).write_text(
        codex_turn(0, "Where is the slowpoke config?", "In config/slowpoke.toml.")
    )
    with (home.root / "serve.out").open("ab") as out:
        home.started.append(
            subprocess.Popen(
                [sys.executable, str(HARNESS)],
                env=home.env,
                cwd=home.root,
                stdout=out,
                stderr=out,
                stdin=subprocess.DEVNULL,
            )
        )
    try:
        home.wait_ready()
        wait_for(lambda: home.health()["backfill"] == "done", 120, "the backfill")  # slowpoke is indexed
        yield home
    finally:
        home.cleanup()


@pytest.fixture
def home(served: DaemonHome) -> Iterator[DaemonHome]:
    """The module's daemon with no call running (what an earlier test cancelled has stopped); the test's relays are
    killed after it."""
    wait_for(lambda: _running(served) == 0, STOP_BOUND, "no call running before the test")
    relays: list[RawRelay] = []
    served.relays = relays  # type: ignore[attr-defined]
    try:
        yield served
    finally:
        for relay in relays:
            relay.kill()


def _relay(home: DaemonHome) -> RawRelay:
    relay = RawRelay(home)
    home.relays.append(relay)  # type: ignore[attr-defined]
    relay.initialize()
    return relay


def _running(home: DaemonHome) -> int:
    return int(home.health()["running"])


def test_a_cancelled_call_stops_its_query_and_gets_no_response(home: DaemonHome) -> None:
    relay = _relay(home)
    relay.call(2, "endless")
    wait_for(lambda: _running(home) == 1, 60, "the endless call to be running")
    cancelled_at = time.monotonic()
    relay.send(
        {"method": "notifications/cancelled", "params": {"requestId": 2, "reason": "user pressed stop"}}
    )
    wait_for(lambda: _running(home) == 0, STOP_BOUND, "the cancelled call's query to stop")
    stopped_after = time.monotonic() - cancelled_at
    relay.send({"id": 3, "method": "ping"})
    assert "result" in relay.response(3)
    relay.call(4, "slowpoke")  # the daemon still answers normally afterwards
    answer = relay.response(4)
    assert answer["result"]["isError"] is False
    assert answer["result"]["structuredContent"]["data"]["result_count"] >= 1
    relay.close_stdin()
    assert relay.wait() == 0
    assert [m for m in relay.messages if m.get("id") == 2] == []
    assert stopped_after < STOP_BOUND


def test_a_client_that_goes_away_cancels_its_work(home: DaemonHome) -> None:
    relay = _relay(home)
    relay.call(2, "endless")
    wait_for(lambda: _running(home) == 1, 60, "the endless call to be running")
    relay.kill()
    wait_for(lambda: _running(home) == 0, STOP_BOUND, "the abandoned call's query to stop")


def test_a_clean_eof_lets_an_admitted_call_finish_and_answer(home: DaemonHome) -> None:
    relay = _relay(home)
    relay.call(2, "slow")
    wait_for(lambda: _running(home) == 1, 60, "the slow call to be running")
    relay.close_stdin()
    answer = relay.response(2)
    assert answer["result"]["isError"] is False
    assert answer["result"]["structuredContent"]["request"]["query"] == "slow"
    assert relay.wait() == 0


def test_a_facade_client_that_goes_away_cancels_its_work_and_frees_its_slot(home: DaemonHome) -> None:
    state = home.state()
    assert state is not None
    url = f"http://127.0.0.1:{state.port}/v1/tools/search_sessions"
    body = json.dumps({"query": "endless"}).encode()
    head = (
        f"POST /v1/tools/search_sessions HTTP/1.1\r\nHost: 127.0.0.1:{state.port}\r\n"
        f"Authorization: {home.http_headers()['Authorization']}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", state.port), timeout=60) as client:
        client.sendall(head.encode() + body)
        wait_for(lambda: _running(home) == 1, 60, "the endless facade call to be running")
    # the connection is closed: the daemon must notice, kill the statement and free the slot
    wait_for(lambda: _running(home) == 0, STOP_BOUND, "the abandoned facade call's query to stop")
    answer = httpx2.post(url, json={"query": "slowpoke"}, headers=home.http_headers(), timeout=120)
    assert answer.status_code == 200 and answer.json()["data"]["result_count"] >= 1
