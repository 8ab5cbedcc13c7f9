"""Put the gate around an app: the secret, the login tickets, the page tokens and the guard, as the daemon serves
them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from starlette.datastructures import Headers
from starlette.routing import Route
from starlette.types import ASGIApp

from moraine.access.guard import GuardPolicy, RequestGuard
from moraine.access.login import LOGIN_PATH, PAGE_TOKEN_HEADER, LoginTickets, PageTokens, bearer, login_routes
from moraine.access.secret import SecretFile, secret_matches

__all__ = ["Access", "guarded"]


@dataclass
class Access:
    """One install's credentials as a server checks them: the secret file, the web page's login tickets and the
    page tokens they become."""

    secret: SecretFile
    tickets: LoginTickets = field(default_factory=LoginTickets)
    tokens: PageTokens = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = PageTokens(self.secret.current)

    @classmethod
    def at(cls, path: Path) -> Access:
        """Return the access of the secret in ``path`` (created when missing or broken)."""
        return cls(SecretFile(path))

    def authorized(self, headers: Headers, port: int | None) -> bool:
        """Return whether a request on ``port`` sends the secret, or a page token in force, as its bearer token.

        Cookies are never looked at: a browser sends them to every port of the host."""
        token = bearer(headers)
        if token is None:
            return False
        return secret_matches(token, self.secret.current()) or self.tokens.age(token, port) is not None

    def renewal(self, headers: Headers, port: int | None) -> tuple[str, str] | None:
        """Return the response header renewing the request's page token, when it is due."""
        token = bearer(headers)
        fresh = None if token is None else self.tokens.renewal(token, port)
        return None if fresh is None else (PAGE_TOKEN_HEADER, fresh)

    def routes(self) -> list[Route]:
        """Return the login routes: issue a ticket, redeem it at ``/auth`` for a page token."""
        return login_routes(self.tickets, self.tokens)


def guarded(
    app: ASGIApp,
    access: Access,
    bound_host: str,
    page_paths: Iterable[str] = (),
    page_folders: Iterable[str] = (),
) -> RequestGuard:
    """Return ``app`` behind the gate: every route, including ones added later, is checked first.

    ``page_paths`` (exact) and ``page_folders`` (one file below each) are the web page's static files, which a
    browser loads by navigation and so without the page token: they answer ``GET`` without credentials."""
    policy = GuardPolicy(
        bound_host,
        access.authorized,
        open_paths=frozenset({LOGIN_PATH}),
        page_paths=frozenset(page_paths),
        page_folders=tuple(page_folders),
        renewal=access.renewal,
    )
    return RequestGuard(app, policy)
