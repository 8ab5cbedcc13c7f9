"""How a browser gets in: a one-time link that turns into an HttpOnly, SameSite=Strict session cookie.

``moraine web`` asks the daemon, over its user-only socket, for a ticket (``POST /v1/daemon/web-login``) and opens
``/auth?token=<ticket>``. The ticket works once and for ``TICKET_SECONDS``; redeeming it sets the cookie and
redirects to ``/``. The cookie's value is derived from the per-install secret, so it survives a daemon restart,
stops working when the secret is replaced, and never reveals the secret itself. Another account that sees a used
or expired link (say in a process list) gets nothing from it.
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
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from moraine.access.secret import secret_matches

__all__ = [
    "LOGIN_PATH",
    "LoginTickets",
    "SESSION_COOKIE",
    "TICKET_PATH",
    "TICKET_SECONDS",
    "holds_secret",
    "login_routes",
    "session_value",
]

LOGIN_PATH = "/auth"
TICKET_PATH = (
    "/v1/daemon/web-login"  # POST: issue a ticket (for callers that hold the secret, or the socket's)
)
SESSION_COOKIE = "moraine_session"
TICKET_SECONDS = 60.0
_BEARER = "bearer "


def session_value(secret: str) -> str:
    """Return the session cookie's value for ``secret`` (a keyed digest: the cookie never carries the secret)."""
    return hmac.new(secret.encode("ascii"), b"moraine web session v1", hashlib.sha256).hexdigest()


def holds_secret(headers: Headers, secret: str) -> bool:
    """Return whether a request carries ``secret`` as a bearer token or the session cookie derived from it."""
    authorization = headers.get("authorization", "")
    if authorization[: len(_BEARER)].lower() == _BEARER:
        return secret_matches(authorization[len(_BEARER) :].strip(), secret)
    cookies = SimpleCookie()
    try:
        cookies.load(headers.get("cookie", ""))
    except CookieError:
        return False
    morsel = cookies.get(SESSION_COOKIE)
    return morsel is not None and secret_matches(morsel.value, session_value(secret))


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
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(
            SESSION_COOKIE, session_value(secret()), httponly=True, samesite="strict", path="/"
        )
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    async def issue(request: Request) -> Response:
        return JSONResponse({"path": f"{LOGIN_PATH}?token={tickets.issue()}", "expires_in": tickets.lifetime})

    return [Route(LOGIN_PATH, redeem, methods=["GET"]), Route(TICKET_PATH, issue, methods=["POST"])]
