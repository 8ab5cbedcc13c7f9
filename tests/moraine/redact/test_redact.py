"""Secret redaction: each secret shape is replaced, the text around it and ordinary text are kept."""

from __future__ import annotations

import random
import re

import pytest

from moraine.redact import redact_text, redact_value, ruleset
from tests.moraine.redact.secrets_corpus import Secret, secrets_corpus

_CORPUS = secrets_corpus()
_ANY_KIND = re.compile(r"\[REDACTED:[^\]]+\]")


@pytest.mark.parametrize("secret", _CORPUS, ids=[f"{i}-{s.kind}" for i, s in enumerate(_CORPUS)])
def test_every_corpus_secret_is_replaced_and_its_surroundings_kept(secret: Secret) -> None:
    out = redact_text(secret.line)
    assert [n for n in secret.needles if n in out] == []
    assert "[REDACTED:" in out
    if secret.rule.startswith(("betterleaks.", "veles.")):  # the shipped ruleset's own rule finds it
        kind = secret.rule.rsplit("/", 1)[-1].removeprefix("betterleaks.")
        [detector] = [d for d in ruleset().detectors if d.kind == kind]
        found = [m.group(0) for m in detector.compile().finditer(secret.line)]
        assert any(secret.needles[0] in f or f in secret.needles[0] for f in found), found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("password=hunter2 ok", "password=[REDACTED:password] ok"),
        ('DB_PASSWORD: "s3cr3tvalue"', 'DB_PASSWORD: "[REDACTED:password]"'),
        ("Client_Secret = abcd1234", "Client_Secret = [REDACTED:password]"),
        ('password = "correct horse battery staple"', 'password = "[REDACTED:password]"'),
        ("postgres://admin:hunter2@db:5432/x", "postgres://admin:[REDACTED:password]@db:5432/x"),
        ("mysql://app:pa@ss@w0rd@db/x", "mysql://app:[REDACTED:password]@db/x"),
        ("mysql -u root -phunter22 shop", "mysql -u root -p[REDACTED:password] shop"),
        ("deploy --password hunter22 --yes", "deploy --password [REDACTED:password] --yes"),
        ("curl -u admin:hunter22 https://x", "curl -u [REDACTED:curl-auth-user] https://x"),
        ("Authorization: Basic ZGVwbG95Omh1bnRlcjIy", "Authorization: Basic [REDACTED:basic-auth]"),
        ("Authorization: Bearer abcdefghijklmnop.qrs", "Authorization: Bearer [REDACTED:bearer]"),
        (
            "a\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----\nz",
            "a\n[REDACTED:private-key]\nz",
        ),
        ("cut short:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow", "cut short:\n[REDACTED:private-key]"),
    ],
)
def test_each_context_shape_is_replaced(text: str, expected: str) -> None:
    # Which detector names the secret does not matter here (a ruleset rule may find it first)
    assert _ANY_KIND.sub("[REDACTED]", redact_text(text)).replace('"', "") == _ANY_KIND.sub(
        "[REDACTED]", expected
    ).replace('"', "")


@pytest.mark.parametrize(
    "text",
    [
        "max_tokens: 1000, the token is fine",
        "see https://example.com/a/b?x=1 and keyboard",
        "def parse_key(value): return value",
        "token = make_token(user)",
        "a basic understanding of the system",
        "commit 3f2a9c1e5b7d4a6f8e0c2b4d6f8a0c2e4b6d8f0a",  # a SHA-1 is not an AWS secret key
        "src/moraine/ingest/adapters/claude_code.py",
        "",
    ],
)
def test_ordinary_text_is_unchanged(text: str) -> None:
    assert redact_text(text) == text


def test_json_values_are_redacted_in_strings_and_by_secret_key_names() -> None:
    github = "gh" + "p_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    value = {"password": "x", "api_key": "abc", "args": [f"use {github}"], "max_tokens": 5}
    assert redact_value(value) == {
        "password": "[REDACTED:password]",
        "api_key": "[REDACTED:password]",
        "args": ["use [REDACTED:github-pat]"],
        "max_tokens": 5,
    }


def test_short_texts_are_redacted_once_and_then_from_a_bounded_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    import moraine.redact as redact_module

    monkeypatch.setattr(redact_module._memo, "entries", 2)
    redact_module._memo.clear()
    secret = "curl -u admin:hunter2hunter2 https://example.com/api"
    first = redact_text(secret)
    assert "hunter2hunter2" not in first
    assert redact_module._memo == {secret: first}
    assert redact_text(secret) == first
    for text in ("plain words here", "more plain words", "and a third text"):
        assert redact_text(text) == text
    assert len(redact_module._memo) <= 2
    long_text = "x " * 200 + secret
    assert "hunter2hunter2" not in redact_text(long_text)
    assert long_text not in redact_module._memo  # longer than the memo's longest: not kept


def test_secret_named_keys_are_told_apart_as_the_key_pattern_does() -> None:
    from moraine.redact import _SECRET_KEY, _secret_named

    words = [
        "password",
        "passwd",
        "passphrase",
        "secret",
        "token",
        "api_key",
        "apikey",
        "access-key",
        "privateKey",
    ]
    words += [
        "credential",
        "credentials",
        "tokens",
        "key",
        "id",
        "3f2a9c1e-77d0-4b1e-9a57-0c1d2e3f4a5d",
        "PASSWORD",
    ]
    rng = random.Random(35)
    keys = [rng.choice(["", "x_", "A.", "my-"]) + w + rng.choice(["", "s", "\n", "X"]) for w in words * 8]
    keys += [
        "".join(rng.choice("adeknorstwyKSI_-.\n\u017f\u0131\u212a") for _ in range(rng.randint(0, 12)))
        for _ in range(3000)
    ]
    for key in keys + keys:  # the second time from the memo
        assert _secret_named(key) == (_SECRET_KEY.match(key) is not None), repr(key)
    assert _secret_named("db_password") and _secret_named("apiKey") and not _secret_named("session_id")
