"""The one gate in front of every route the daemon serves: an ASGI middleware around the whole app.

Checks, in order, each answered before any route runs:

- loopback TCP only: ``Host`` must name a loopback address or the bound one (and our port when it gives one),
  else 421 (DNS rebinding: a foreign page whose name resolves to 127.0.0.1 sends its own name); ``Origin`` must
  be absent or this daemon's own ``http://<host>``, else 403 (a page of any other origin, including another
  loopback port); the per-install secret, or a page token derived from it (``moraine.access.login``), must be
  sent as ``Authorization: Bearer``, else 401. Cookies are never a credential: a browser sends them to every port.
  A path listed as open (the one-time login link) skips only the secret, and so does a ``GET`` of the web page's
  static files (the shell and its scripts, which hold no data: a browser loads them by navigation, which cannot
  carry the page token).
- every transport: a POST (PUT, PATCH), or any request that carries a body, must send ``application/json``, else 415 (a ``text/plain`` form post
  needs no CORS preflight); a body over ``max_body`` bytes is 413, found while reading it in chunks (never read
  whole first). The body is then handed to the route as received.

Requests on the Unix socket (uvicorn reports its server address without a port) skip the loopback TCP checks:
that socket is reachable by its owner only. Nothing here grants CORS: no ``Access-Control-*`` header is ever sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "GuardPolicy",
    "MAX_BODY_BYTES",
    "RequestGuard",
]

MAX_BODY_BYTES = 4 * 1024 * 1024  # what the MCP SDK allows one /mcp message
_LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]"})
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
_PAGE_METHODS = frozenset({"GET", "HEAD"})
_JSON = "application/json"


@dataclass(frozen=True, slots=True)
class GuardPolicy:
    """What the gate admits: the bound address, how a request proves it holds the secret, paths open without it."""

    bound_host: str
    authorized: Callable[[Headers, int | None], bool]
    open_paths: frozenset[str] = field(default_factory=frozenset)
    # the page's static files, which a browser GETs without credentials: these paths, and one file below each folder
    page_paths: frozenset[str] = field(default_factory=frozenset)
    page_folders: tuple[str, ...] = ()
    max_body: int = MAX_BODY_BYTES
    # a response header (name, value) to add: a renewed page token
    renewal: Callable[[Headers, int | None], tuple[str, str] | None] = lambda headers, port: None

    def is_open(self, method: str, path: str) -> bool:
        """Return whether ``method`` on ``path`` is answered without credentials (Host and Origin still apply)."""
        if path in self.open_paths:
            return True
        if method not in _PAGE_METHODS:
            return False
        if path in self.page_paths:
            return True
        return any(
            path.startswith(folder) and len(path) > len(folder) and "/" not in path[len(folder) :]
            for folder in self.page_folders
        )

    def allowed_hosts(self) -> frozenset[str]:
        bound = f"[{self.bound_host}]" if ":" in self.bound_host else self.bound_host
        return _LOOPBACK_NAMES | {bound.lower()}


class _Refused(Exception):
    def __init__(self, status: int, detail: str, headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.headers = list(headers)


def _over_tcp(scope: Scope) -> bool:
    """Return whether the request came over TCP (uvicorn gives a Unix socket's server address no port)."""
    server = scope.get("server")
    return not (isinstance(server, (tuple, list)) and len(server) == 2 and server[1] is None)


def _port(scope: Scope) -> int | None:
    """Return the port the request came in on (None on the Unix socket)."""
    server = scope.get("server")
    return server[1] if isinstance(server, (tuple, list)) and len(server) == 2 else None


def _split_host(value: str) -> tuple[str, int | None] | None:
    """Return (hostname, port) of a Host header value, or None when it is malformed."""
    host, sep, port = value.rpartition(":")
    if not sep or host.endswith(":") or (value.startswith("[") and not host.endswith("]")):
        host, port = value, ""  # no port (or a bare IPv6 literal, which the allowed names never are)
    if port and not port.isdigit():
        return None
    return host.lower(), int(port) if port else None


class RequestGuard:
    """ASGI middleware applying ``policy`` to every HTTP request before ``app`` sees it."""

    def __init__(self, app: ASGIApp, policy: GuardPolicy) -> None:
        self.app = app
        self.policy = policy
        self._hosts = policy.allowed_hosts()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)  # lifespan (websockets are not served)
            return
        headers = Headers(scope=scope)
        renewal = None
        try:
            if _over_tcp(scope):
                self._check_caller(scope, headers)
                renewal = self.policy.renewal(headers, _port(scope))
            self._check_media_type(scope, headers)
            body = await self._read_body(headers, receive)
        except _Refused as refused:
            await _refuse(send, refused)
            return
        await self.app(
            scope, _replay(body, receive), send if renewal is None else _with_header(send, renewal)
        )

    def _check_caller(self, scope: Scope, headers: Headers) -> None:
        host = headers.get("host", "")
        parts = _split_host(host)
        port = _port(scope)
        if parts is None or parts[0] not in self._hosts or (parts[1] is not None and parts[1] != port):
            raise _Refused(421, f"Host {host!r} is not this daemon: only its loopback address is served")
        origin = headers.get("origin")
        if origin is not None and origin.lower() != f"http://{host.lower()}":
            raise _Refused(403, f"Origin {origin!r} may not call this daemon: only its own pages may")
        is_open = self.policy.is_open(str(scope.get("method", "")), str(scope.get("path", "")))
        if not is_open and not self.policy.authorized(headers, port):
            raise _Refused(
                401,
                "missing or wrong credentials: send 'Authorization: Bearer <secret>' with the secret in "
                "$MORAINE_HOME/run/http-secret, or open the web page with `moraine web`",
                [(b"www-authenticate", b'Bearer realm="moraine"')],
            )

    def _check_media_type(self, scope: Scope, headers: Headers) -> None:
        declares_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
        if scope.get("method") not in _BODY_METHODS and not declares_body:
            return
        media_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if media_type != _JSON:
            raise _Refused(415, f"request bodies must be {_JSON}, not {media_type or 'absent'}")

    async def _read_body(self, headers: Headers, receive: Receive) -> list[Message]:
        """Receive the whole body in chunks, refusing it as soon as it passes the limit."""
        limit = self.policy.max_body
        too_large = _Refused(413, f"request body is larger than {limit} bytes")
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise too_large
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                return messages  # the client went away: the route sees the disconnect
            size += len(message.get("body", b""))
            if size > limit:
                raise too_large
            if not message.get("more_body", False):
                return messages


def _with_header(send: Send, header: tuple[str, str]) -> Send:
    """Return a ``send`` that adds ``header`` to the response (a renewed page token)."""
    raw = (header[0].lower().encode("ascii"), header[1].encode("ascii"))

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), raw]}
        await send(message)

    return sending


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """Return a ``receive`` that yields ``messages`` first, then whatever the client sends next."""
    pending = list(messages)

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


async def _refuse(send: Send, refused: _Refused) -> None:
    body = json.dumps({"detail": refused.detail}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *refused.headers,
    ]
    if refused.status == 413:
        headers.append((b"connection", b"close"))  # the rest of the body is never read
    await send({"type": "http.response.start", "status": refused.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
