"""How a browser gets in: a one-time ticket, handed over through a user-only file, that becomes a session cookie.

``moraine web`` asks the daemon, over its user-only socket, for a ticket (``POST /v1/daemon/web-login``), writes a
small page that forwards to ``/auth?token=<ticket>`` into ``$MORAINE_HOME/run`` (0600 in a 0700 directory:
``moraine.access.login_page``) and opens that page as a ``file://`` URL, so the ticket never appears on a command
line, where every local account could read it. The ticket works once and for ``TICKET_SECONDS``.

Redeeming it answers a page that sets the cookie and moves on to ``/`` from the daemon's own origin (a redirect
would keep the navigation cross-site, started from ``file://``, and a SameSite=Strict cookie would not be sent).
The cookie:

- is HttpOnly and SameSite=Strict, named after the install and the port (``moraine_session_<port>_<tag>``): cookies
  are not separated by port, so a daemon of another install, or any other loopback server, sees a name it does not
  use;
- carries its issue time and a keyed digest of it under the per-install secret: it never reveals the secret,
  stops working when the secret is replaced, and expires ``SESSION_SECONDS`` (a day) after it was issued; a request
  that uses a cookie older than ``RENEW_AFTER_SECONDS`` gets a fresh one, so a page in use stays logged in.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from http.cookies import CookieError, SimpleCookie

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from moraine.access.secret import secret_matches

__all__ = [
    "LOGIN_PATH",
    "LoginTickets",
    "RENEW_AFTER_SECONDS",
    "SESSION_COOKIE",
    "SESSION_SECONDS",
    "TICKET_PATH",
    "TICKET_SECONDS",
    "cookie_name",
    "holds_secret",
    "login_routes",
    "renewed_cookie",
    "session_cookie",
    "session_value",
]

LOGIN_PATH = "/auth"
TICKET_PATH = (
    "/v1/daemon/web-login"  # POST: issue a ticket (for callers that hold the secret, or the socket's)
)
SESSION_COOKIE = "moraine_session"  # the prefix of every install's cookie name
SESSION_SECONDS = 24 * 3600
RENEW_AFTER_SECONDS = 300
TICKET_SECONDS = 60.0
_CLOCK_SKEW_SECONDS = 60  # a cookie issued this far "in the future" is still accepted
_BEARER = "bearer "
_LANDING = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">'
    '<meta http-equiv="refresh" content="0;url=/"><title>Moraine</title></head>'
    '<body><p>Logged in. <a href="/">Open Moraine</a>.</p></body></html>'
)


def _digest(secret: str, message: str) -> str:
    return hmac.new(secret.encode("ascii"), message.encode("ascii"), hashlib.sha256).hexdigest()


def cookie_name(secret: str, port: int | None) -> str:
    """Return the session cookie's name for this install (a tag derived from ``secret``) and ``port``."""
    return f"{SESSION_COOKIE}_{port or 0}_{_digest(secret, 'moraine web cookie name')[:12]}"


def session_value(secret: str, issued_at: int) -> str:
    """Return the cookie value issued at ``issued_at`` (epoch seconds): the time and its keyed digest, no secret."""
    return f"{issued_at}.{_digest(secret, f'moraine web session v2|{issued_at}')}"


def _cookie_age(headers: Headers, secret: str, port: int | None, now: float) -> float | None:
    """Return how old the request's valid session cookie is, or None when it has none that is valid now."""
    cookies: SimpleCookie = SimpleCookie()
    try:
        cookies.load(headers.get("cookie", ""))
    except CookieError:
        return None
    morsel = cookies.get(cookie_name(secret, port))
    if morsel is None:
        return None
    issued, _, _ = morsel.value.partition(".")
    if not issued.isdigit() or not secret_matches(morsel.value, session_value(secret, int(issued))):
        return None
    age = now - int(issued)
    return age if -_CLOCK_SKEW_SECONDS <= age < SESSION_SECONDS else None


def holds_secret(headers: Headers, secret: str, port: int | None, now: float | None = None) -> bool:
    """Return whether a request carries ``secret`` as a bearer token or a session cookie of it still in force."""
    authorization = headers.get("authorization", "")
    if authorization[: len(_BEARER)].lower() == _BEARER:
        return secret_matches(authorization[len(_BEARER) :].strip(), secret)
    return _cookie_age(headers, secret, port, time.time() if now is None else now) is not None


def session_cookie(secret: str, port: int | None, now: float | None = None) -> str:
    """Return a ``Set-Cookie`` value for a fresh session (HttpOnly, SameSite=Strict, a day)."""
    issued = int(time.time() if now is None else now)
    return (
        f"{cookie_name(secret, port)}={session_value(secret, issued)}; Max-Age={SESSION_SECONDS}; Path=/; "
        "HttpOnly; SameSite=Strict"
    )


def renewed_cookie(headers: Headers, secret: str, port: int | None, now: float | None = None) -> str | None:
    """Return a fresh ``Set-Cookie`` value when the request's cookie is valid and older than the renewal age."""
    at = time.time() if now is None else now
    age = _cookie_age(headers, secret, port, at)
    if age is None or age < RENEW_AFTER_SECONDS or headers.get("authorization"):
        return None
    return session_cookie(secret, port, at)


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


def login_routes(tickets: LoginTickets, secret: Callable[[], str]) -> list[Route]:
    """Return ``GET /auth`` (redeem a ticket) and ``POST`` at ``TICKET_PATH`` (issue one)."""

    async def redeem(request: Request) -> Response:
        if not tickets.redeem(request.query_params.get("token", "")):
            return JSONResponse(
                {
                    "detail": "this login link was already used or has expired: run `moraine web` for a new one"
                },
                status_code=401,
            )
        response = HTMLResponse(_LANDING)
        response.headers["Set-Cookie"] = session_cookie(secret(), _port(request))
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    async def issue(request: Request) -> Response:
        return JSONResponse({"path": f"{LOGIN_PATH}?token={tickets.issue()}", "expires_in": tickets.lifetime})

    return [Route(LOGIN_PATH, redeem, methods=["GET"]), Route(TICKET_PATH, issue, methods=["POST"])]
