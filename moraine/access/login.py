"""How a browser gets in: a one-time ticket, handed over through a user-only file, that becomes a page token.

``moraine web`` asks the daemon, over its user-only socket, for a ticket (``POST /v1/daemon/web-login``), writes a
small page that forwards to ``/auth?token=<ticket>`` into ``$MORAINE_HOME/run`` (0600 in a 0700 directory:
``moraine.access.login_page``) and opens that page as a ``file://`` URL, so the ticket never appears on a command
line, where every local account could read it. The ticket works once and for ``TICKET_SECONDS``.

Redeeming it answers a small page that holds a *page token* in a ``<meta>`` element; the page's own script
(``/web/login.js``) keeps it in the tab's ``sessionStorage`` and opens ``/``. Every request the page makes sends it
as ``Authorization: Bearer <token>``. Nothing is ever set as a cookie, and no cookie is accepted: a browser sends
the cookies of 127.0.0.1 to every port of it, so an ambient credential reaches any other loopback server the
browser visits (another account's included). A header is sent only where the page's script sends it, and no other
origin (another port is another origin) can read the tab's storage.

The page token:

- is ``<issued>.<digest>``: its issue time and a keyed digest of it, the port, and a key drawn when the daemon
  started, under the per-install secret. It never reveals the secret, is refused on any other port, and stops
  working when the secret is replaced or the daemon restarts (so a server that takes the port while the daemon is
  down, and so shares the page's origin, can only read tokens that are already dead);
- expires ``SESSION_SECONDS`` (a day) after it was issued; a request that uses a token older than
  ``RENEW_AFTER_SECONDS`` gets a fresh one in the ``Moraine-Page-Token`` response header, which the page keeps, so a
  page in use stays logged in.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from moraine.access.secret import secret_matches

__all__ = [
    "LOGIN_PATH",
    "LoginTickets",
    "PAGE_TOKEN_HEADER",
    "PageTokens",
    "RENEW_AFTER_SECONDS",
    "SESSION_SECONDS",
    "TICKET_PATH",
    "TICKET_SECONDS",
    "bearer",
    "login_routes",
]

LOGIN_PATH = "/auth"
TICKET_PATH = (
    "/v1/daemon/web-login"  # POST: issue a ticket (for callers that hold the secret, or the socket's)
)
PAGE_TOKEN_HEADER = "Moraine-Page-Token"  # a response header: the renewed page token
SESSION_SECONDS = 24 * 3600
RENEW_AFTER_SECONDS = 300
TICKET_SECONDS = 60.0
_CLOCK_SKEW_SECONDS = 60  # a token issued this far "in the future" is still accepted
_BEARER = "bearer "
_LANDING_POLICY = (
    "default-src 'none'; script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def _landing(token: str) -> str:
    """Return the page ``/auth`` answers: the token for the tab, and the script that keeps it and opens ``/``."""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">'
        f'<meta name="moraine-page-token" content="{html.escape(token, quote=True)}">'
        '<script type="module" src="/web/login.js"></script><title>Moraine</title></head>'
        "<body><p>Logging in… (the Moraine page needs JavaScript)</p></body></html>"
    )


def bearer(headers: Headers) -> str | None:
    """Return the request's ``Authorization: Bearer`` value, or None when it sends none."""
    authorization = headers.get("authorization", "")
    if authorization[: len(_BEARER)].lower() != _BEARER:
        return None
    return authorization[len(_BEARER) :].strip()


@dataclass
class PageTokens:
    """Page tokens of one daemon process: issued for a port, checked against the secret in force."""

    secret: Callable[[], str]
    key: str = field(default_factory=lambda: secrets.token_hex(32))  # drawn per process: a restart revokes
    clock: Callable[[], float] = time.time

    def _digest(self, port: int | None, issued: int) -> str:
        message = f"moraine page token v1|{self.key}|{port or 0}|{issued}"
        return hmac.new(self.secret().encode("ascii"), message.encode("ascii"), hashlib.sha256).hexdigest()

    def issue(self, port: int | None) -> str:
        """Return a fresh token for the page served on ``port``."""
        issued = int(self.clock())
        return f"{issued}.{self._digest(port, issued)}"

    def age(self, token: str, port: int | None) -> float | None:
        """Return how old ``token`` is, or None when it is not a token of this process and ``port`` in force."""
        issued, _, _ = token.partition(".")
        if not issued.isdigit() or len(issued) > 12:
            return None
        if not secret_matches(token, f"{issued}.{self._digest(port, int(issued))}"):
            return None
        age = self.clock() - int(issued)
        return age if -_CLOCK_SKEW_SECONDS <= age < SESSION_SECONDS else None

    def renewal(self, token: str, port: int | None) -> str | None:
        """Return a fresh token when ``token`` is valid and older than the renewal age, else None."""
        age = self.age(token, port)
        return None if age is None or age < RENEW_AFTER_SECONDS else self.issue(port)


class LoginTickets:
    """One-time login tickets: each redeems once, within ``lifetime`` seconds of its issue."""

    def __init__(self, lifetime: float = TICKET_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.lifetime = lifetime
        self._clock = clock
        self._expiry: dict[str, float] = {}
        self._lock = threading.Lock()

    def issue(self) -> str:
        """Return a fresh ticket."""
        ticket = secrets.token_urlsafe(32)
        with self._lock:
            now = self._clock()
            self._expiry = {t: at for t, at in self._expiry.items() if at > now}  # forget expired ones
            self._expiry[ticket] = now + self.lifetime
        return ticket

    def redeem(self, ticket: str) -> bool:
        """Return whether ``ticket`` is valid, spending it."""
        with self._lock:
            expiry = self._expiry.pop(ticket, None)
        return expiry is not None and expiry > self._clock()


def _port(request: Request) -> int | None:
    server = request.scope.get("server")
    return server[1] if isinstance(server, (tuple, list)) and len(server) == 2 else None


def login_routes(tickets: LoginTickets, tokens: PageTokens) -> list[Route]:
    """Return ``GET /auth`` (redeem a ticket for a page token) and ``POST`` at ``TICKET_PATH`` (issue a ticket)."""

    async def redeem(request: Request) -> Response:
        if not tickets.redeem(request.query_params.get("token", "")):
            return JSONResponse(
                {
                    "detail": "this login link was already used or has expired: run `moraine web` for a new one"
                },
                status_code=401,
            )
        response = HTMLResponse(_landing(tokens.issue(_port(request))))
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Content-Security-Policy"] = _LANDING_POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    async def issue(request: Request) -> Response:
        return JSONResponse({"path": f"{LOGIN_PATH}?token={tickets.issue()}", "expires_in": tickets.lifetime})

    return [Route(LOGIN_PATH, redeem, methods=["GET"]), Route(TICKET_PATH, issue, methods=["POST"])]
