"""Who may talk to the daemon over loopback TCP, and how: one gate for every route, a per-install secret, and a
one-time login link for the web page.

- ``secret``: the per-install secret file (0600 under ``$MORAINE_HOME/run``), created or replaced when broken.
- ``guard``: the ASGI middleware that checks Host, Origin, the secret, the media type and the body size.
- ``login``: one-time login tickets, the ``/auth`` route, and the page token (derived from the secret) it hands
  the web page, which sends it as a header (never a cookie).
- ``login_page``: the user-only page ``moraine web`` opens, which forwards the browser to its one-time link.
- ``gate``: the three put together around an app (what the daemon serves).
"""

from __future__ import annotations

from moraine.access.gate import Access, guarded
from moraine.access.guard import MAX_BODY_BYTES, GuardPolicy, RequestGuard
from moraine.access.login import (
    LOGIN_PATH,
    PAGE_TOKEN_HEADER,
    TICKET_PATH,
    LoginTickets,
    PageTokens,
    bearer,
)
from moraine.access.secret import SecretFile, ensure_secret

__all__ = [
    "Access",
    "GuardPolicy",
    "LOGIN_PATH",
    "LoginTickets",
    "MAX_BODY_BYTES",
    "PAGE_TOKEN_HEADER",
    "PageTokens",
    "RequestGuard",
    "SecretFile",
    "TICKET_PATH",
    "bearer",
    "ensure_secret",
    "guarded",
]
