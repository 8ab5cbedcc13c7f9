"""Put the gate around an app: the secret, the login tickets and the guard, as the daemon serves them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from starlette.datastructures import Headers
from starlette.routing import Route
from starlette.types import ASGIApp

from moraine.access.guard import GuardPolicy, RequestGuard
from moraine.access.login import LOGIN_PATH, LoginTickets, holds_secret, login_routes, renewed_cookie
from moraine.access.secret import SecretFile

__all__ = ["Access", "guarded"]


@dataclass
class Access:
    """One install's credentials as a server checks them: the secret file and the web page's login tickets."""

    secret: SecretFile
    tickets: LoginTickets = field(default_factory=LoginTickets)

    @classmethod
    def at(cls, path: Path) -> Access:
        """Return the access of the secret in ``path`` (created when missing or broken)."""
        return cls(SecretFile(path))

    def authorized(self, headers: Headers, port: int | None) -> bool:
        """Return whether a request on ``port`` carries the secret (or a session cookie of it still in force)."""
        return holds_secret(headers, self.secret.current(), port)

    def renewal(self, headers: Headers, port: int | None) -> str | None:
        """Return a ``Set-Cookie`` value renewing the request's session cookie, when it is due."""
        return renewed_cookie(headers, self.secret.current(), port)

    def routes(self) -> list[Route]:
        """Return the login routes: issue a ticket, redeem it at ``/auth``."""
        return login_routes(self.tickets, self.secret.current)


def guarded(app: ASGIApp, access: Access, bound_host: str) -> RequestGuard:
    """Return ``app`` behind the gate: every route, including ones added later, is checked first."""
    policy = GuardPolicy(
        bound_host, access.authorized, open_paths=frozenset({LOGIN_PATH}), renewal=access.renewal
    )
    return RequestGuard(app, policy)
