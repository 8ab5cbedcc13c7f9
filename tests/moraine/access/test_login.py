"""One-time login tickets and the session cookie: a ticket redeems once and only before it expires."""

from __future__ import annotations

from starlette.datastructures import Headers

from moraine.access import (
    SESSION_COOKIE,
    LoginTickets,
    cookie_name,
    holds_secret,
    renewed_cookie,
    session_cookie,
    session_value,
)
from moraine.access.login import SESSION_SECONDS

SECRET = "s" * 43
PORT = 8765
NOW = 1_790_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_ticket_redeems_once() -> None:
    tickets = LoginTickets()
    ticket = tickets.issue()
    assert tickets.redeem(ticket) is True
    assert tickets.redeem(ticket) is False
    assert tickets.redeem("") is False and tickets.redeem("made-up") is False


def test_a_ticket_expires() -> None:
    clock = Clock()
    tickets = LoginTickets(lifetime=60.0, clock=clock)
    late, early = tickets.issue(), tickets.issue()
    assert tickets.redeem(early) is True
    clock.now += 60.0
    assert tickets.redeem(late) is False


def test_tickets_are_unguessable_and_distinct() -> None:
    tickets = LoginTickets()
    issued = {tickets.issue() for _ in range(100)}
    assert len(issued) == 100 and min(len(t) for t in issued) >= 43


def _cookie(secret: str, port: int, issued: float) -> dict[str, str]:
    """Return the request headers of a browser holding the session cookie issued at ``issued``."""
    name_value = session_cookie(secret, port, issued).split(";", 1)[0]
    return {"cookie": f"theme=dark; {name_value}"}


def test_the_secret_is_accepted_as_a_bearer_token_or_the_derived_cookie() -> None:
    cookie = session_value(SECRET, int(NOW))
    assert SECRET not in cookie and session_value("t" * 43, int(NOW)) != cookie
    name = cookie_name(SECRET, PORT)
    accepted = [
        {"authorization": f"Bearer {SECRET}"},
        {"authorization": f"bearer {SECRET}"},
        {"cookie": f"theme=dark; {name}={cookie}"},
    ]
    refused = [
        {},
        {"authorization": f"Bearer {SECRET[:-1]}"},
        {"authorization": SECRET},
        {"cookie": f"{name}={SECRET}"},  # the cookie is the derived value, never the secret itself
        {"cookie": f"{name}={int(NOW) + 1}.{cookie.split('.')[1]}"},  # another issue time: the digest fails
        {"cookie": f"moraine_session={cookie}"},  # the old, shared name
        {"cookie": f'{name}="unterminated'},
        {"cookie": "\x00\x01garbage=;;=="},
    ]
    assert all(holds_secret(Headers(h), SECRET, PORT, NOW) for h in accepted)
    assert not any(holds_secret(Headers(h), SECRET, PORT, NOW) for h in refused)


def test_the_cookie_name_is_specific_to_the_install_and_the_port() -> None:
    names = {cookie_name(SECRET, PORT), cookie_name(SECRET, PORT + 1), cookie_name("t" * 43, PORT)}
    assert len(names) == 3 and all(n.startswith(f"{SESSION_COOKIE}_") for n in names)
    headers = Headers(_cookie(SECRET, PORT, NOW))
    assert holds_secret(headers, SECRET, PORT, NOW)
    assert not holds_secret(headers, SECRET, PORT + 1, NOW)  # another daemon's port never accepts it
    assert not holds_secret(headers, "t" * 43, PORT, NOW)  # nor another install


def test_a_session_cookie_expires_after_a_day() -> None:
    headers = Headers(_cookie(SECRET, PORT, NOW))
    assert "Max-Age=86400" in session_cookie(SECRET, PORT, NOW) and SESSION_SECONDS == 86400
    assert holds_secret(headers, SECRET, PORT, NOW + SESSION_SECONDS - 1)
    assert not holds_secret(headers, SECRET, PORT, NOW + SESSION_SECONDS)
    assert not holds_secret(headers, SECRET, PORT, NOW - 3600)  # "issued" an hour from now: forged


def test_a_session_cookie_in_use_is_renewed_for_another_day() -> None:
    headers = Headers(_cookie(SECRET, PORT, NOW))
    assert renewed_cookie(headers, SECRET, PORT, NOW + 10) is None  # fresh: nothing to renew
    later = NOW + SESSION_SECONDS - 60
    renewed = renewed_cookie(headers, SECRET, PORT, later)
    assert renewed is not None and "HttpOnly" in renewed and "SameSite=Strict" in renewed
    fresh = Headers({"cookie": renewed.split(";", 1)[0]})
    assert holds_secret(fresh, SECRET, PORT, later + SESSION_SECONDS - 1)
    assert (
        renewed_cookie(headers, SECRET, PORT, NOW + SESSION_SECONDS) is None
    )  # expired ones are not renewed
