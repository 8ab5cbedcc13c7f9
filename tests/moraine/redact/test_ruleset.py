"""The shipped ruleset: its Rust patterns become Python ones, their literals the pre-filter, and the result is cached."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from moraine.redact import _cache_dir, ruleset
from moraine.redact.literals import max_width, required_literals
from moraine.redact.redactor import Redactor
from moraine.redact.ruleset import _CASE_PARTNERS, _SHARPER_TRIGGERS, cache_file, load_ruleset, translate


@pytest.mark.parametrize(
    ("rust", "python"),
    [
        (r"(?i)abc", r"(?i)abc"),
        (r"p8e-(?i)[a-z]{3}|foo", r"p8e-(?i:[a-z]{3})|(?i:foo)"),  # the flag holds to the group's end
        (r"x(a(?i)b|c)d", r"x(a(?i:b)|(?i:c))d"),
        (r"[(?i)]x", r"[(?i)]x"),  # inside a class it is only characters
        (r"(a|\z)", r"(a|\Z)"),
        (
            "\\b(sk_[a-z]{8})(?:\\\\?['\"\\x60]|[\\s;]|\\\\[nr]|$)",
            r"\b(sk_[a-z]{8})",
        ),  # the trailing context goes
    ],
)
def test_rust_patterns_become_python_patterns(rust: str, python: str) -> None:
    assert translate(rust) == python
    re.compile(python)


@pytest.mark.parametrize(
    ("pattern", "literals"),
    [
        (r"\bghp_[A-Za-z0-9]{36}", {"ghp_"}),
        (r"(?:A3T[A-Z0-9]|AKIA|ASIA)[A-Z2-7]{16}", {"a3t", "akia", "asia"}),  # a factored-out common prefix
        (r"\b(cf[ua]t_[A-Za-z0-9]{40})", {"cfut_", "cfat_"}),  # a small class is spelled out
        (r"(?i)(?:lob)[ \t]{0,20}=\s*((live|test)_[a-f0-9]{35})", {"lob"}),  # rarer beats longer
        (r"(?:(?:[Ss])(?:[Kk])\-(?:[0-9A-Fa-f]){32})", {"sk-"}),
        (r"ey[a-zA-Z0-9]{17,}\.ey", {".ey"}),
        (r"SK[0-9a-fA-F]{32}", None),  # nothing of three characters: it runs on every text it could match
    ],
)
def test_required_literals_are_found_in_the_parse_tree(pattern: str, literals: set[str] | None) -> None:
    found = required_literals(re.compile(pattern))
    assert (None if found is None else set(found)) == literals


def test_widths_are_bounded_or_none() -> None:
    assert max_width(re.compile(r"ab{3,5}")) == 6
    assert max_width(re.compile(r"a+")) is None


def test_the_installed_ruleset_is_large_and_compiles() -> None:
    loaded = ruleset()
    assert loaded.source.startswith("kingfisher-secret-scanner ")
    assert len(loaded.detectors) >= 400
    assert len(loaded.skipped) <= len(loaded.detectors) // 20  # a few untranslatable patterns at most
    kinds = {d.kind for d in loaded.detectors}
    assert {"jwt", "stripe-access-token", "gitlab-pat", "slack-webhook-url", "private-key"} <= kinds
    assert all(d.compile() for d in loaded.detectors[:50])


def test_the_translation_is_cached_user_only_and_reused(tmp_path: Path) -> None:
    first = ruleset()  # built (or read) through the user's cache
    cache = cache_file(_cache_dir())
    assert cache.stat().st_mode & 0o077 == 0 and cache.parent.stat().st_mode & 0o077 == 0
    rows = json.loads(cache.read_text())
    assert [row[0].rsplit("/", 1)[-1].removeprefix("betterleaks.") for row in rows if row[1]] == [
        d.kind for d in first.detectors
    ]
    rows[0][1] = r"\bNEVER-FROM-THE-PACKAGE\b"
    (tmp_path / cache.name).write_text(json.dumps(rows))
    again = load_ruleset(tmp_path)  # read from the file, not rebuilt from the package
    assert again.detectors[0].pattern == r"\bNEVER-FROM-THE-PACKAGE\b"


def test_the_case_partners_are_those_re_ignorecase_takes_for_ascii_letters() -> None:
    letter = re.compile("[a-z]", re.IGNORECASE)
    found: dict[str, set[str]] = {}
    for code in range(0x80, 0x110000):
        char = chr(code)
        if letter.fullmatch(char):
            ascii_letter = next(
                a for a in "abcdefghijklmnopqrstuvwxyz" if re.fullmatch(a, char, re.IGNORECASE)
            )
            found.setdefault(ascii_letter, set()).add(char)
    assert found == {key: set(value) for key, value in _CASE_PARTNERS.items()}


def test_the_aws_session_token_rule_wakes_on_its_own_name_in_every_spelling_re_matches() -> None:
    rule = next(d for d in ruleset().detectors if d.kind == "aws-session-token")
    assert (
        rule.triggers == _SHARPER_TRIGGERS[rule.pattern]
    )  # the installed rule is the one the trigger was made for
    redactor = Redactor([rule])
    value = "FwoGZXIvYXdzEJr1234567890abcdefghij"
    for name in (
        "AWS_SESSION_TOKEN",
        "aws-security-token",
        "AWS_\u017fESSION_TO\u212aEN",
        "AWSSECUR\u0130TYTOKEN",
    ):
        assert redactor.redact(f"session first, then {name}={value} x") == (
            f"session first, then {name}=[REDACTED:aws-session-token] x"
        ), name
    assert (
        redactor.redact(f"a session token={value}") == f"a session token={value}"
    )  # no AWS name: not its shape
