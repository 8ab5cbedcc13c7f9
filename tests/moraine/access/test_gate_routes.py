"""Every route the daemon serves, behind the gate: a foreign Host (421), a foreign Origin (403), a ``text/plain``
body (415), a body over 4 MiB (413), a missing or wrong secret (401), each refused before any route runs; the same
request with the secret reaches its route. The web page's static files are the only routes a ``GET`` reaches
without the secret; its data calls need the page token, sent as a header (a cookie never counts).

The app is the daemon's own (``build_daemon_app``) on real handlers over a real store, driven in-process over
loopback TCP as uvicorn would present it. A recorder between the gate and the app counts what gets through.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from starlette.types import ASGIApp, Receive, Scope, Send

from tests.asgi_scope import http_scope

from handlers import Deps, Settings, load_handlers
from moraine.access import MAX_BODY_BYTES, PAGE_TOKEN_HEADER, Access, RequestGuard
from moraine.access.login import RENEW_AFTER_SECONDS
from moraine.daemon.activity import Activity
from moraine.daemon.admission import Admission
from moraine.daemon.app import build_daemon_app
from moraine.daemon.report import store_report
from moraine.server.service import ToolService
from moraine.store.client import Store

PORT = 8765
BASE = f"http://127.0.0.1:{PORT}"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"},
    },
}
# (method, path, JSON body or None): every route of the daemon's app.
ROUTES: list[tuple[str, str, Any]] = [
    ("POST", "/mcp", INITIALIZE),
    ("GET", "/mcp", None),
    ("DELETE", "/mcp", None),
    ("POST", "/v1/tools/search_sessions", {"query": "narwhal"}),
    ("POST", "/v1/tools/open", {"id": "not-an-id"}),
    ("POST", "/v1/tools/list_sessions", {}),
    ("POST", "/v1/tools/file_attention", {"path": "/tmp/x.py"}),
    ("POST", "/v1/tools/no_such_tool", {}),
    ("GET", "/openapi.json", None),
    ("GET", "/", None),
    ("GET", "/web/app.css", None),
    ("GET", "/v1/daemon/health", None),
    ("POST", "/v1/daemon/call", {"tool": "search_sessions", "arguments": {"query": "narwhal"}}),
    ("GET", "/v1/daemon/attach", None),
    ("GET", "/v1/daemon/status", None),
    ("GET", "/v1/daemon/usage", None),
    ("POST", "/v1/daemon/web-login", {}),
    ("POST", "/v1/daemon/forget", {"criteria": {"ids": ["session:ses_0000000000001"]}}),
    ("GET", "/no/such/route", None),
]
ROUTE_IDS = [f"{method} {path}" for method, path, _ in ROUTES]
PAGE_FILES = {
    "/",
    "/web/app.css",
}  # the page's static files: no data, loaded by navigation without credentials
GATED = [route for route in ROUTES if route[1] not in PAGE_FILES]
GATED_IDS = [f"{method} {path}" for method, path, _ in GATED]


class Recorder:
    """Sits between the gate and the app; counts the requests that got through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.seen: list[str] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            self.seen.append(f"{scope['method']} {scope['path']}")
        await self.app(scope, receive, send)


class Daemon:
    def __init__(self, gate: RequestGuard, recorder: Recorder, secret: str, access: Access) -> None:
        self.gate = gate
        self.recorder = recorder
        self.secret = secret
        self.access = access

    def send(
        self, method: str, path: str, headers: dict[str, str], content: bytes | None = None
    ) -> httpx2.Response:
        """Send one request through the gate (over 'loopback TCP') and return the answer."""

        async def run() -> httpx2.Response:
            transport = httpx2.ASGITransport(app=self.gate)
            async with httpx2.AsyncClient(transport=transport, base_url=BASE, timeout=60) as client:
                return await client.request(method, path, headers=headers, content=content)

        return anyio.run(run)


def _build(store: Store, access: Access) -> RequestGuard:
    """Return the daemon's app (the gate around it), as ``moraine serve`` builds it."""
    service = ToolService(Deps(store, Settings(cursor_secret=b"g" * 32)), load_handlers())
    stopping = anyio.Event()
    stopping.set()  # /v1/daemon/attach answers its first line and ends
    gate = build_daemon_app(
        service,
        Admission(2, 4),
        Activity(),
        stopping,
        lambda: {"pid": 1, "version": "test"},
        lambda limit: store_report(store, limit),
        access,
        usage=store,
    )
    assert isinstance(gate, RequestGuard)
    return gate


@pytest.fixture(scope="module")
def store(store_dsn: str) -> Iterator[Store]:
    opened = Store.open(store_dsn, database="gate_routes")
    try:
        yield opened
    finally:
        opened.command("DROP DATABASE IF EXISTS gate_routes")
        opened.close()


@pytest.fixture(scope="module")
def daemon(store: Store, tmp_path_factory: pytest.TempPathFactory) -> Daemon:
    access = Access.at(tmp_path_factory.mktemp("run") / "http-secret")
    gate = anyio.run(_async_build, store, access)
    recorder = Recorder(gate.app)
    gate.app = recorder
    return Daemon(gate, recorder, access.secret.current(), access)


async def _async_build(store: Store, access: Access) -> RequestGuard:
    return _build(store, access)


def _headers(daemon: Daemon, body: Any, **extra: str) -> dict[str, str]:
    headers = {"authorization": f"Bearer {daemon.secret}", "accept": "application/json, text/event-stream"}
    if body is not None:
        headers["content-type"] = "application/json"
    headers.update(extra)
    return headers


def _content(body: Any) -> bytes | None:
    return None if body is None else json.dumps(body).encode()


def _refused(daemon: Daemon, method: str, path: str, headers: dict[str, str], content: bytes | None) -> int:
    before = len(daemon.recorder.seen)
    response = daemon.send(method, path, headers, content)
    assert len(daemon.recorder.seen) == before, f"{method} {path} reached its route: {response.status_code}"
    assert "access-control-allow-origin" not in response.headers
    assert "detail" in response.json()
    return response.status_code


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=ROUTE_IDS)
def test_a_foreign_host_is_misdirected(daemon: Daemon, method: str, path: str, body: Any) -> None:
    for host in ("evil.example:8765", "evil.example", "127.0.0.1.evil.example:8765", "127.0.0.1:1", ""):
        headers = _headers(daemon, body, host=host)
        assert _refused(daemon, method, path, headers, _content(body)) == 421, host


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=ROUTE_IDS)
def test_a_foreign_origin_is_forbidden(daemon: Daemon, method: str, path: str, body: Any) -> None:
    for origin in ("http://evil.example:8765", "http://127.0.0.1:3000", "https://127.0.0.1:8765", "null"):
        headers = _headers(daemon, body, origin=origin)
        assert _refused(daemon, method, path, headers, _content(body)) == 403, origin


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=ROUTE_IDS)
def test_a_plain_text_body_is_unsupported(daemon: Daemon, method: str, path: str, body: Any) -> None:
    headers = _headers(daemon, body, **{"content-type": "text/plain"})
    assert _refused(daemon, method, path, headers, json.dumps(body or {}).encode()) == 415


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=ROUTE_IDS)
def test_a_body_over_four_mib_is_too_large(daemon: Daemon, method: str, path: str, body: Any) -> None:
    big = json.dumps({"query": "x" * MAX_BODY_BYTES}).encode()
    headers = _headers(daemon, True)
    assert _refused(daemon, method, path, headers, big) == 413

    async def chunks() -> Any:  # no Content-Length: the limit is found while reading
        for _ in range(5):
            yield b" " * (1024 * 1024)

    async def run() -> httpx2.Response:
        transport = httpx2.ASGITransport(app=daemon.gate)
        async with httpx2.AsyncClient(transport=transport, base_url=BASE) as client:
            return await client.request(method, path, headers=headers, content=chunks())

    before = len(daemon.recorder.seen)
    assert anyio.run(run).status_code == 413
    assert len(daemon.recorder.seen) == before


@pytest.mark.parametrize(("method", "path", "body"), GATED, ids=GATED_IDS)
def test_a_missing_or_wrong_secret_is_unauthorized(daemon: Daemon, method: str, path: str, body: Any) -> None:
    for authorization in (
        None,
        "Bearer wrong",
        f"Basic {daemon.secret}",
        f"Bearer {daemon.secret}x",
        "Bearer ",
    ):
        headers = _headers(daemon, body)
        if authorization is None:
            del headers["authorization"]
        else:
            headers["authorization"] = authorization
        assert _refused(daemon, method, path, headers, _content(body)) == 401, authorization
    headers = {k: v for k, v in _headers(daemon, body).items() if k != "authorization"}
    headers["cookie"] = "moraine_session=forged"
    assert _refused(daemon, method, path, headers, _content(body)) == 401
    headers["cookie"] = f"moraine_page={daemon.access.tokens.issue(PORT)}; secret={daemon.secret}"
    assert _refused(daemon, method, path, headers, _content(body)) == 401  # a cookie never counts


def test_only_a_get_of_the_pages_static_files_needs_no_secret(daemon: Daemon) -> None:
    for path in ("/", "/web/app.css", "/web/main.js", "/web/login.js"):
        before = len(daemon.recorder.seen)
        answer = daemon.send("GET", path, {})
        assert answer.status_code == 200 and daemon.recorder.seen[before:] == [f"GET {path}"], path
        assert "set-cookie" not in answer.headers
    assert (
        daemon.send("GET", "/web/nope.js", {}).status_code == 404
    )  # reaches the route, which has no such file
    for method, path in (("POST", "/"), ("DELETE", "/"), ("POST", "/web/app.css"), ("GET", "/web/a/b.js")):
        assert _refused(daemon, method, path, {}, None) == 401, (method, path)
    for path in ("/web/", "/web", "/webx/app.css", "/v1/export/session:x", "/openapi.json"):
        assert _refused(daemon, "GET", path, {}, None) == 401, path
    assert _refused(daemon, "GET", "/", {"host": "evil.example:8765"}, None) == 421
    assert _refused(daemon, "GET", "/web/main.js", {"origin": "http://127.0.0.1:3000"}, None) == 403


@pytest.mark.parametrize(("method", "path", "body"), [r for r in ROUTES if r[1] != "/mcp"], ids=ROUTE_IDS[3:])
def test_with_the_secret_the_request_reaches_its_route(
    daemon: Daemon, method: str, path: str, body: Any
) -> None:
    before = len(daemon.recorder.seen)
    response = daemon.send(method, path, _headers(daemon, body), _content(body))
    assert daemon.recorder.seen[before:] == [f"{method} {path}"]
    assert response.status_code not in (401, 403, 413, 415, 421)
    assert "access-control-allow-origin" not in response.headers
    # the daemon's own origin, as its web page sends it, is welcome too
    same_origin = daemon.send(method, path, _headers(daemon, body, origin=BASE), _content(body))
    assert same_origin.status_code == response.status_code


def test_an_mcp_client_with_the_secret_lists_and_calls_tools(daemon: Daemon, store: Store) -> None:
    async def run() -> tuple[list[str], bool]:
        gate = _build(store, daemon.access)  # the SDK's session manager runs once per app: a fresh one
        inner = gate.app
        recorder = Recorder(inner)
        gate.app = recorder
        headers = {"authorization": f"Bearer {daemon.secret}"}
        with anyio.fail_after(60):
            async with inner.router.lifespan_context(inner):  # type: ignore[attr-defined]
                transport = httpx2.ASGITransport(app=gate)
                async with httpx2.AsyncClient(transport=transport, base_url=BASE, headers=headers) as http:
                    async with Client(streamable_http_client(f"{BASE}/mcp", http_client=http)) as client:
                        tools = sorted(t.name for t in (await client.list_tools()).tools)
                        result = await client.call_tool("search_sessions", {"query": "narwhal"})
        assert recorder.seen and set(recorder.seen) <= {"POST /mcp", "GET /mcp", "DELETE /mcp"}
        return tools, result.is_error

    tools, is_error = anyio.run(run)
    assert tools == ["file_attention", "list_sessions", "open", "search_sessions"]
    assert is_error is False


def _token_of(landing: str) -> str:
    found = re.search(r'<meta name="moraine-page-token" content="([^"]+)">', landing)
    assert found is not None, landing
    return found.group(1)


def test_the_login_link_needs_no_secret_but_the_host_and_origin_checks_still_apply(daemon: Daemon) -> None:
    ticket = daemon.access.tickets.issue()
    assert _refused(daemon, "GET", f"/auth?token={ticket}", {"host": "evil.example:8765"}, None) == 421
    assert _refused(daemon, "GET", f"/auth?token={ticket}", {"origin": "http://evil.example"}, None) == 403
    login = daemon.send("GET", f"/auth?token={ticket}", {})
    # a page whose own script keeps the token in the tab and moves on to / (no cookie, no redirect)
    assert login.status_code == 200 and '<script type="module" src="/web/login.js"></script>' in login.text
    assert login.headers["cache-control"] == "no-store"
    assert "script-src 'self'" in login.headers["content-security-policy"]
    assert "set-cookie" not in login.headers
    token = _token_of(login.text)
    assert daemon.secret not in token
    assert daemon.send("GET", f"/auth?token={ticket}", {}).status_code == 401  # single use
    search = daemon.send(
        "POST",
        "/v1/tools/search_sessions",
        {"authorization": f"Bearer {token}", "content-type": "application/json", "origin": BASE},
        b'{"query": "narwhal"}',
    )
    assert search.status_code == 200 and search.json()["request"]["query"] == "narwhal"
    as_cookie = {"cookie": f"moraine_page={token}", "content-type": "application/json", "origin": BASE}
    assert _refused(daemon, "POST", "/v1/tools/search_sessions", as_cookie, b'{"query": "narwhal"}') == 401


def test_the_unix_socket_needs_no_secret_but_keeps_the_body_rules(daemon: Daemon) -> None:
    async def over_socket(headers: list[tuple[bytes, bytes]], body: bytes) -> int:
        sent: list[dict[str, Any]] = []
        messages = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive() -> dict[str, Any]:
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        async def send(message: Any) -> None:
            sent.append(message)

        socket = ("/home/u/.moraine/run/daemon.sock", None)  # what uvicorn reports for a Unix socket
        scope = http_scope("GET", "/v1/daemon/health", [(b"host", b"moraine.daemon"), *headers], socket)
        await daemon.gate(scope, receive, send)
        return int(sent[0]["status"])

    assert anyio.run(over_socket, [], b"") == 200
    assert anyio.run(over_socket, [(b"content-type", b"text/plain"), (b"content-length", b"2")], b"hi") == 415


def test_the_secret_file_is_user_only(daemon: Daemon) -> None:
    path: Path = daemon.access.secret.path
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_page_token_in_use_is_renewed_in_a_header_and_a_stale_one_refused(daemon: Daemon) -> None:
    tokens = daemon.access.tokens
    now = time.time()
    tokens.clock = lambda: now - RENEW_AFTER_SECONDS - 10
    recent = tokens.issue(PORT)
    tokens.clock = lambda: now - 2 * 86400
    stale = tokens.issue(PORT)
    tokens.clock = time.time
    answered = daemon.send("GET", "/v1/daemon/health", {"authorization": f"Bearer {recent}"})
    assert answered.status_code == 200 and "set-cookie" not in answered.headers
    renewed = answered.headers[PAGE_TOKEN_HEADER]
    assert renewed != recent
    assert _refused(daemon, "GET", "/v1/daemon/health", {"authorization": f"Bearer {stale}"}, None) == 401
    fresh = daemon.send("GET", "/v1/daemon/health", {"authorization": f"Bearer {renewed}"})
    assert fresh.status_code == 200 and PAGE_TOKEN_HEADER not in fresh.headers
