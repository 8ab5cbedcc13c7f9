"""Who may talk to the daemon over loopback TCP, and how: one gate for every route, a per-install secret, and a
one-time login link for the web page.

- ``secret``: the per-install secret file (0600 under ``$MORAINE_HOME/run``), created or replaced when broken.
- ``guard``: the ASGI middleware that checks Host, Origin, the secret, the media type and the body size.
- ``login``: one-time login tickets, the ``/auth`` route, and the session cookie derived from the secret.
- ``login_page``: the user-only page ``moraine web`` opens, which forwards the browser to its one-time link.
- ``gate``: the three put together around an app (what the daemon serves).
"""

from __future__ import annotations

from moraine.access.gate import Access, guarded
from moraine.access.guard import MAX_BODY_BYTES, GuardPolicy, RequestGuard
from moraine.access.login import (
    LOGIN_PATH,
    SESSION_COOKIE,
    TICKET_PATH,
    LoginTickets,
    cookie_name,
    holds_secret,
    renewed_cookie,
    session_cookie,
    session_value,
)
from moraine.access.secret import SecretFile, ensure_secret

__all__ = [
    "Access",
    "GuardPolicy",
    "LOGIN_PATH",
    "LoginTickets",
    "MAX_BODY_BYTES",
    "RequestGuard",
    "SESSION_COOKIE",
    "SecretFile",
    "TICKET_PATH",
    "cookie_name",
    "ensure_secret",
    "guarded",
    "holds_secret",
    "renewed_cookie",
    "session_cookie",
    "session_value",
]
