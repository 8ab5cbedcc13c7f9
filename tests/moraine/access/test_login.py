"""One-time login tickets and the session cookie: a ticket redeems once and only before it expires."""

from __future__ import annotations

from starlette.datastructures import Headers

from moraine.access import LoginTickets, holds_secret, session_value

SECRET = "s" * 43


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


def test_the_secret_is_accepted_as_a_bearer_token_or_the_derived_cookie() -> None:
    cookie = session_value(SECRET)
    assert SECRET not in cookie and session_value("t" * 43) != cookie
    accepted = [
        {"authorization": f"Bearer {SECRET}"},
        {"authorization": f"bearer {SECRET}"},
        {"cookie": f"theme=dark; moraine_session={cookie}"},
    ]
    refused = [
        {},
        {"authorization": f"Bearer {SECRET[:-1]}"},
        {"authorization": SECRET},
        {"cookie": f"moraine_session={SECRET}"},  # the cookie is the derived value, never the secret itself
        {"cookie": 'moraine_session="unterminated'},
        {"cookie": "\x00\x01garbage=;;=="},
    ]
    assert all(holds_secret(Headers(h), SECRET) for h in accepted)
    assert not any(holds_secret(Headers(h), SECRET) for h in refused)
