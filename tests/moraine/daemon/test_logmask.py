"""Credentials are masked before a line reaches the daemon log; the text that identifies the thing stays."""

from __future__ import annotations

import pytest

from moraine.daemon.logmask import mask_credentials

CASES = [
    (
        "starting (pid 7, store http://moraine:hunter2@db.internal:8123)",
        "starting (pid 7, store http://moraine:***@db.internal:8123)",
    ),
    ("https://svc:p@ss@w0rd@ch.example:8443/?x=1", "https://svc:***@ch.example:8443/?x=1"),
    ("dsn=http://u:pw@h:1/ password=s3cret&user=x", "dsn=http://u:***@h:1/ password=***&user=x"),
    ('{"password": "correct horse battery staple"}', '{"password": "***"}'),
    ("STRIPE_SECRET_KEY=sk_live_abc DB_PASSWORD='x y'", "STRIPE_SECRET_KEY=*** DB_PASSWORD='***'"),
    ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig", "Authorization: Bearer ***"),
    ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic ***"),
    ("retrying with bearer abcdefgh12345678", "retrying with bearer ***"),
]

KEPT = [
    "store chdb:///home/me/.moraine/store (database moraine)",
    "batch of 5000 events, max_tokens=5, 12 tokens",
    "basic configuration loaded from /home/me/.moraine/config.toml",
    "ready: MCP at http://127.0.0.1:8765/mcp",
]


@pytest.mark.parametrize(("text", "masked"), CASES)
def test_a_credential_is_replaced_and_its_context_kept(text: str, masked: str) -> None:
    assert mask_credentials(text) == masked


@pytest.mark.parametrize("text", KEPT)
def test_a_line_without_credentials_is_unchanged(text: str) -> None:
    assert mask_credentials(text) == text


def test_masking_twice_changes_nothing_more() -> None:
    once = mask_credentials(CASES[0][0] + " " + CASES[2][0])
    assert mask_credentials(once) == once
