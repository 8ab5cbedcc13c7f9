"""One-time login tickets and the page tokens they become: a ticket redeems once and only before it expires; a
page token is accepted only as a bearer header, on its own port, from the daemon process that issued it."""

from __future__ import annotations

from pathlib import Path

from starlette.datastructures import Headers

from moraine.access import PAGE_TOKEN_HEADER, Access, LoginTickets, PageTokens
from moraine.access.login import RENEW_AFTER_SECONDS, SESSION_SECONDS

SECRET = "s" * 43
PORT = 8765
NOW = 1_790_000_000.0


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

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


def _access(tmp_path: Path) -> Access:
    secret = tmp_path / "http-secret"
    secret.write_text(SECRET + "\n")
    return Access.at(secret)


def test_the_secret_or_a_page_token_is_accepted_as_a_bearer_header_and_never_as_a_cookie(
    tmp_path: Path,
) -> None:
    access = _access(tmp_path)
    token = access.tokens.issue(PORT)
    assert SECRET not in token
    accepted = [
        {"authorization": f"Bearer {SECRET}"},
        {"authorization": f"bearer {SECRET}"},
        {"authorization": f"Bearer {token}"},
    ]
    refused = [
        {},
        {"authorization": f"Bearer {SECRET[:-1]}"},
        {"authorization": SECRET},
        {"authorization": token},  # no scheme
        {"authorization": f"Bearer {token}0"},
        {
            "authorization": f"Bearer {int(token.split('.')[0]) + 1}.{token.split('.')[1]}"
        },  # another issue time
        {"cookie": f"moraine_page={token}"},  # a cookie is never a credential, whatever it holds
        {"cookie": f"moraine_session={token}; session={SECRET}"},
        {"authorization": "Bearer 99999999999999999999.00"},
    ]
    assert all(access.authorized(Headers(h), PORT) for h in accepted)
    assert not any(access.authorized(Headers(h), PORT) for h in refused)


def test_a_page_token_works_only_on_its_port_in_the_process_that_issued_it_under_the_same_secret(
    tmp_path: Path,
) -> None:
    access = _access(tmp_path)
    headers = Headers({"authorization": f"Bearer {access.tokens.issue(PORT)}"})
    assert access.authorized(headers, PORT)
    assert not access.authorized(headers, PORT + 1)  # another daemon's port never accepts it
    restarted = Access.at(access.secret.path)  # the same install, a new daemon process
    assert not restarted.authorized(headers, PORT)
    access.secret.path.write_text("t" * 43 + "\n")  # the secret replaced: every token it signed is revoked
    assert not access.authorized(headers, PORT)


def test_a_page_token_expires_after_a_day() -> None:
    clock = Clock(NOW)
    tokens = PageTokens(lambda: SECRET, clock=clock)
    token = tokens.issue(PORT)
    clock.now = NOW + SESSION_SECONDS - 1
    assert tokens.age(token, PORT) == SESSION_SECONDS - 1
    clock.now = NOW + SESSION_SECONDS
    assert tokens.age(token, PORT) is None
    clock.now = NOW - 3600
    assert tokens.age(token, PORT) is None  # "issued" an hour from now: forged


def test_a_page_token_in_use_is_renewed_for_another_day() -> None:
    clock = Clock(NOW)
    tokens = PageTokens(lambda: SECRET, clock=clock)
    token = tokens.issue(PORT)
    clock.now = NOW + RENEW_AFTER_SECONDS - 1
    assert tokens.renewal(token, PORT) is None  # fresh: nothing to renew
    clock.now = NOW + SESSION_SECONDS - 60
    renewed = tokens.renewal(token, PORT)
    assert renewed is not None and renewed != token
    clock.now += SESSION_SECONDS - 1
    assert tokens.age(renewed, PORT) == SESSION_SECONDS - 1 and tokens.age(token, PORT) is None
    assert tokens.renewal(token, PORT) is None  # expired ones are not renewed


def test_only_a_page_token_is_renewed_and_in_a_response_header(tmp_path: Path) -> None:
    access = _access(tmp_path)
    access.tokens.clock = Clock(NOW)
    token = access.tokens.issue(PORT)
    access.tokens.clock = Clock(NOW + RENEW_AFTER_SECONDS)
    renewed = access.renewal(Headers({"authorization": f"Bearer {token}"}), PORT)
    assert renewed is not None and renewed[0] == PAGE_TOKEN_HEADER and renewed[1] != token
    assert access.renewal(Headers({"authorization": f"Bearer {SECRET}"}), PORT) is None
    assert access.renewal(Headers({"cookie": f"moraine_page={token}"}), PORT) is None
