"""Secret redaction: each secret shape is replaced, the text around it and ordinary text are kept."""

from __future__ import annotations

import pytest

from moraine.redact import redact_text, redact_value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("key sk-proj-abcdefghijklmnopqrstuvwxyz123456 end", "key [REDACTED:openai_key] end"),
        ("sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123", "[REDACTED:anthropic_key]"),
        ("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "[REDACTED:github_token]"),
        ("github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "[REDACTED:github_token]"),
        ("id AKIAIOSFODNN7EXAMPLE", "id [REDACTED:aws_key]"),
        ("xoxb-1234567890-abcdefghij", "[REDACTED:slack_token]"),
        ("AIzaSyA1234567890abcdefghijklmnopqrstuv", "[REDACTED:google_key]"),
        ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig", "Authorization: Bearer [REDACTED:bearer]"),
        (
            "a\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----\nz",
            "a\n[REDACTED:private_key]\nz",
        ),
        ("postgres://admin:hunter2@db:5432/x", "postgres://admin:[REDACTED:password]@db:5432/x"),
        ("password=hunter2 ok", "password=[REDACTED:password] ok"),
        ('DB_PASSWORD: "s3cr3tvalue"', 'DB_PASSWORD: "[REDACTED:password]"'),
        ("Client_Secret = abcd1234", "Client_Secret = [REDACTED:password]"),
    ],
)
def test_each_secret_shape_is_replaced(text: str, expected: str) -> None:
    assert redact_text(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "max_tokens: 1000, the token is fine",
        "see https://example.com/a/b?x=1 and keyboard",
        "def parse_key(value): return value",
        "",
    ],
)
def test_ordinary_text_is_unchanged(text: str) -> None:
    assert redact_text(text) == text


def test_json_values_are_redacted_in_strings_and_by_secret_key_names() -> None:
    value = {"password": "x", "api_key": "abc", "args": ["sk-abcdefghijklmnopqrstuvwxyz12"], "max_tokens": 5}
    assert redact_value(value) == {
        "password": "[REDACTED:password]",
        "api_key": "[REDACTED:password]",
        "args": ["[REDACTED:openai_key]"],
        "max_tokens": 5,
    }
