"""A real ``moraine serve`` bounds what callers without the secret hold open: a connection that never completes
its headers is closed after ``header_timeout_seconds``, past ``max_unauthenticated_connections`` on a listener
the oldest unproven connection is closed, and the daemon answers its user throughout."""

from __future__ import annotations

import selectors
import socket
import time
from collections.abc import Iterator

import httpx2
import pytest
from daemon_support import DaemonHome, codex_turn

HEADER_SECONDS = 6
CAP = 20
HALF_OPEN = 60
HALF_HEADERS = b"GET /v1/daemon/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


@pytest.fixture(scope="module")
def home() -> Iterator[DaemonHome]:
    home = DaemonHome()
    home.configure(header_timeout_seconds=HEADER_SECONDS, max_unauthenticated_connections=CAP)
    home.seed_store()
    home.session_file("0196f100-0000-7000-8000-00000000beef").write_text(codex_turn(0, "hello", "hi"))
    try:
        home.serve()
        home.wait_ready()
        yield home
    finally:
        home.cleanup()


def _closed_at(conns: list[socket.socket], deadline: float) -> dict[int, float]:
    """Return, by index, when each connection was closed by the daemon (EOF or reset), waiting until ``deadline``."""
    selector = selectors.DefaultSelector()
    for index, conn in enumerate(conns):
        selector.register(conn, selectors.EVENT_READ, index)
    closed: dict[int, float] = {}
    while len(closed) < len(conns) and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=max(0.0, deadline - time.monotonic())):
            try:
                data = key.fileobj.recv(4096)  # type: ignore[union-attr]
            except ConnectionResetError:
                data = b""
            if not data:
                closed[key.data] = time.monotonic()
                selector.unregister(key.fileobj)
    selector.close()
    return closed


def test_half_open_connections_are_closed_and_the_daemon_keeps_answering(home: DaemonHome) -> None:
    state = home.state()
    assert state is not None
    conns = []
    try:
        for _ in range(HALF_OPEN):
            conn = socket.create_connection(("127.0.0.1", state.port), timeout=30)
            conn.sendall(HALF_HEADERS)
            conns.append(conn)
        opened = time.monotonic()
        # the user is still served, over TCP with the secret and over the socket, while they hang
        answer = httpx2.get(
            f"http://127.0.0.1:{state.port}/v1/daemon/health", headers=home.http_headers(), timeout=30
        )
        assert answer.status_code == 200 and answer.json()["pid"] == state.pid
        assert home.health()["pid"] == state.pid
        closed = _closed_at(conns, opened + HEADER_SECONDS + 30)
    finally:
        for conn in conns:
            conn.close()
    assert len(closed) == HALF_OPEN, f"{HALF_OPEN - len(closed)} half-open connections were never closed"
    evicted = [closed[i] for i in range(HALF_OPEN - CAP)]  # the oldest, pushed out by newer ones past the cap
    timed_out = [
        closed[i] for i in range(HALF_OPEN - CAP + 1, HALF_OPEN)
    ]  # the newest: by the header deadline
    assert max(evicted) < min(timed_out)
    assert min(timed_out) - opened >= HEADER_SECONDS - 1
    after = httpx2.get(
        f"http://127.0.0.1:{state.port}/v1/daemon/health", headers=home.http_headers(), timeout=30
    )
    assert after.status_code == 200
