"""Secret redaction, applied by ingest to everything before it is stored (on by default; ``redact = false``).

Recognized: provider API keys (OpenAI ``sk-``, Anthropic ``sk-ant-``, GitHub ``ghp_``/``gho_``/``ghu_``/``ghs_``/
``ghr_``/``github_pat_``, AWS ``AKIA``/``ASIA``, Slack ``xox?-``, Google ``AIza``), bearer tokens, PEM private key
blocks, passwords in URLs (``scheme://user:pass@host``), and ``password=``/``secret=``/``token=``-style assignments
(also as JSON object keys). Each secret becomes ``[REDACTED:<kind>]``; the text around it is kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["redact_text", "redact_value"]

_SECRET_WORD = r"(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?)"


@dataclass(frozen=True, slots=True)
class _Rule:
    """One secret shape: a regex, the cheap substrings that must occur for it to match, and its replacement.

    A ``lower`` rule's pattern is written in lower case and runs over the lower-cased text (case-insensitive
    alternations are several times slower in ``re``); its matches are spliced back into the original text.
    """

    pattern: re.Pattern[str]
    hints: tuple[str, ...]
    lower: bool
    replace: Callable[[Any], str]  # called with the match (or a _Splice): group(1) is the kept prefix


def _whole(kind: str) -> Callable[[Any], str]:
    return lambda match: f"[REDACTED:{kind}]"


def _keep_prefix(kind: str) -> Callable[[Any], str]:
    return lambda match: f"{match.group(1)}[REDACTED:{kind}]"


_RULES = (
    _Rule(
        re.compile(
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:.*?-----END [A-Z0-9 ]*PRIVATE KEY-----|.*\Z)", re.S
        ),
        ("PRIVATE KEY",),
        False,
        _whole("private_key"),
    ),
    _Rule(re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{16,}"), ("sk-ant-",), False, _whole("anthropic_key")),
    _Rule(
        re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}"),
        ("sk-",),
        False,
        _whole("openai_key"),
    ),
    _Rule(
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})"),
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        False,
        _whole("github_token"),
    ),
    _Rule(re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), ("AKIA", "ASIA"), False, _whole("aws_key")),
    _Rule(re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"), ("xox",), False, _whole("slack_token")),
    _Rule(re.compile(r"\bAIza[0-9A-Za-z_\-]{35}"), ("AIza",), False, _whole("google_key")),
    _Rule(
        re.compile(r"(\bbearer\s+)[a-z0-9._~+/\-]{12,}=*"),
        ("bearer",),
        True,
        _keep_prefix("bearer"),
    ),
    _Rule(
        re.compile(r"(://[^\s/:@\"'<>]+:)[^\s/@\"'<>]+(?=@)"),
        ("://",),
        False,
        _keep_prefix("password"),
    ),
    _Rule(
        re.compile(r"(" + _SECRET_WORD + r"[\"']?\s*[=:]\s*[\"']?)(?!\[redacted)[^\s\"',;&<>{}()\[\]]{4,}"),
        ("pass", "secret", "token", "key", "credential"),
        True,
        _keep_prefix("password"),
    ),
)
_SHORTEST_SECRET = 8  # no pattern above matches fewer characters ("token=abcd")
# One pass over the lower-cased text for every rule's hints: most texts hold none and are returned untouched.
_ANY_HINT = re.compile(
    "|".join(sorted({re.escape(h.lower()) for rule in _RULES for h in rule.hints}, key=len)[::-1])
)
_SECRET_KEY = re.compile(r"(?i)^[A-Za-z0-9_.-]*" + _SECRET_WORD + r"$")


def redact_text(text: str) -> str:
    """Return ``text`` with every recognized secret replaced."""
    if len(text) < _SHORTEST_SECRET:
        return text
    low = text.lower()
    if _ANY_HINT.search(low) is None:
        return text
    for rule in _RULES:
        if not any(hint in (low if rule.lower else text) for hint in rule.hints):
            continue
        replaced = _apply_lower(rule, text, low) if rule.lower else rule.pattern.sub(rule.replace, text)
        if replaced != text:
            text = replaced
            low = text.lower()
    return text


def _apply_lower(rule: _Rule, text: str, low: str) -> str:
    if len(low) != len(text):  # a few characters change length when lower-cased: match case-blind instead
        return re.compile(rule.pattern.pattern, re.I).sub(rule.replace, text)
    parts: list[str] = []
    last = 0
    for match in rule.pattern.finditer(low):
        start, end = match.span()
        prefix_end = match.end(1)
        parts.append(text[last:start])
        parts.append(rule.replace(_Splice(text[start:prefix_end])))
        last = end
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)


class _Splice:
    """The piece of a match a replacement needs (group 1, in the original case)."""

    def __init__(self, prefix: str) -> None:
        self._prefix = prefix

    def group(self, index: int) -> str:
        return self._prefix


def redact_value(value: Any) -> Any:
    """Return a JSON value with secrets in its strings replaced (values of secret-named keys wholesale)."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        out: dict[Any, Any] = {}
        for key, item in value.items():
            if isinstance(item, str) and isinstance(key, str) and item and _SECRET_KEY.match(key):
                out[key] = "[REDACTED:password]"
            else:
                out[key] = redact_value(item)
        return out
    if isinstance(value, list | tuple):
        return [redact_value(item) for item in value]
    return value
