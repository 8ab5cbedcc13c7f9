"""The secret shapes a provider ruleset leaves out: credentials recognized by what surrounds them, not by a prefix.

Rulesets describe tokens (``ghp_...``, ``sk_live_...``); a terminal also shows passwords typed as command options
(``--password x``, mysql's ``-pX``, ``curl -u user:pass``), in headers (``Authorization: Basic``/``Bearer``), in URLs
(``scheme://user:pass@host``, the password may hold ``@``), in assignments (``SECRET_KEY=...``,
``password = "several words"``, ``"db_password": "..."``), in key blocks cut short by a truncated output, and AWS
secret keys alone on a line (40 characters of base64 with no prefix at all), and provider keys shorter than the
ruleset's exact shapes. Each detector's trigger is the part of
its shape that Hyperscan finds first (see ``moraine.redact.redactor``).
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter

from moraine.redact.detector import detector as _detector

__all__ = ["CONTEXT_DETECTORS", "random_looking"]


_SECRET_WORD = (
    r"(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key"
    r"|credentials?|auth[_-]?key)"
)
# An assignment: the word, an identifier tail after a separator (SECRET_KEY, db_password_prod), an optional closing
# quote of a key (also JSON-escaped), then = or :; the value is a quoted string (spaces and all) or a bare token
# (not a call, an index or the end of a parameter list: ``token = make_token(...)``, ``SECRET_KEY = os.environ[...]``,
# ``def f(secret: Value)`` assign no secret), nor a keyword (``const token = await fetchToken()``).
_KEYWORDS = (
    r"(?:await|new|yield|typeof|null|none|nil|true|false|undefined|lambda|function|async|require|self|this)"
)
_ASSIGNMENT = (
    _SECRET_WORD + r"(?:[_-][a-z0-9]{1,20}){0,4}\\?[\"']?[ \t]{0,8}[=:][ \t]{0,8}"
    r"(?:\\?\"(?P<dq>[^\"\\\n]{1,200})\\?\"|\\?'(?P<sq>[^'\\\n]{1,200})\\?'"
    r"|(?P<bare>(?!\[REDACTED|" + _KEYWORDS + r"\b)[^\s\"'`,;&<>{}()\[\]\\]{4,200})(?=[\s\"'`,;&<>{}\]\\]|$))"
)

_UPPER = frozenset(string.ascii_uppercase)
_LOWER = frozenset(string.ascii_lowercase)
_DIGITS = frozenset(string.digits)


def random_looking(secret: str) -> bool:
    """A random key: upper, lower and digit all present, and high entropy (a path, a word or a hash is not)."""
    chars = set(secret)
    if chars.isdisjoint(_UPPER) or chars.isdisjoint(_LOWER) or chars.isdisjoint(_DIGITS):
        return False
    counts = Counter(secret).values()
    entropy = -sum(n / len(secret) * math.log2(n / len(secret)) for n in counts)
    return entropy >= 4.2


# Provider keys of a shorter or older form than the ruleset's exact shapes (which pin each length): a key cut by
# a truncated output, or an early format, is still a key. These are the shapes redacted before the ruleset came.
_LOOSE_KEYS = (
    ("anthropic-api-key", r"\bsk-ant-[A-Za-z0-9_-]{16,200}", (r"sk-ant-",)),
    ("openai-api-key", r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,200}", (r"\bsk-",)),
    (
        "github-token",
        r"\b(?:gh[pousr]_[A-Za-z0-9]{30,100}|github_pat_[A-Za-z0-9_]{22,200})",
        (r"gh[pousr]_", r"github_pat_"),
    ),
    ("aws-access-token", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", (r"akia", r"asia")),
    ("slack-token", r"\bxox[abposr]-[A-Za-z0-9-]{10,200}", (r"xox[abposr]-",)),
    ("gcp-api-key", r"\bAIza[0-9A-Za-z_-]{35}", (r"aiza",)),
)

CONTEXT_DETECTORS = (
    _detector(
        "private-key",
        r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----"
        r"(?:.*?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|.*\Z)",
        (r"PRIVATE KEY(?: BLOCK)?-----",),
        (0,),
        re.S,
    ),
    _detector(
        "password",
        r"://[^\s/:@\"'<>]{0,128}:(?P<pw>[^\s/\"'<>]{1,256})@[^\s@/\"'<>]",
        (r"://[^\s/@]*:[^\s/]*@",),
        ("pw",),
    ),
    _detector(
        "password",
        _ASSIGNMENT,
        (_SECRET_WORD + r"[\w-]*\\?[\"']?[ \t]*[=:]",),
        ("dq", "sq", "bare"),
        re.I,
    ),
    _detector(
        "password",
        r"(?<![\w-])--?(?:password|passwd|pass|token|api-key|apikey|secret|client-secret|auth-token)"
        r"(?:=|[ \t]{1,8})[\"']?(?P<pw>(?!-)[^\s\"']{1,200})",
        (r"-(?:password|passwd|pass|token|api-?key|secret|client-secret|auth-token)(?:=|[ \t])",),
        ("pw",),
        re.I,
    ),
    _detector(
        "password",
        r"\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]{0,200}?[ \t]-p(?P<pw>[^\s\"']{1,200})",
        (r"(?:mysql|mariadb)[^\n|;&]*[ \t]-p",),
        ("pw",),
        re.I,
    ),
    _detector(
        "password",
        r"\bcurl\b[^\n|;&]{0,500}?[ \t](?:-u|--user)(?:=|[ \t]{0,8})[\"']?[^\s:\"']{1,200}:(?P<pw>[^\s\"']{1,200})",
        (r"curl[^\n|;&]*[ \t](?:-u|--user)",),
        ("pw",),
        re.I,
    ),
    _detector(
        "basic-auth",
        r"\bauthorization\\?[\"']?[ \t]{0,8}[:=][ \t]{0,8}\\?[\"']?basic[ \t]{1,8}(?P<cred>[A-Za-z0-9+/]{8,500}={0,2})",
        (r"authorization[^\n]*basic[ \t]",),
        ("cred",),
        re.I,
    ),
    _detector(
        "bearer",
        r"\bbearer[ \t]{1,8}(?P<token>[A-Za-z0-9._~+/-]{12,2000}={0,2})",
        (r"bearer[ \t]{1,8}[A-Za-z0-9._~+/-]{12}",),
        ("token",),
        re.I,
    ),
    _detector(
        "aws-secret-key",
        r"(?:(?<![\w/+=-])|(?<=^[+-])|(?<=\n[+-]))(?P<key>[A-Za-z0-9/+]{40})(?![\w/+=-])",  # a diff line's +/- too
        (r"(?:^|^[+-]|[^\w/+=-]|\n[+-])[A-Za-z0-9/+]{40}(?:[^\w/+=-]|$)",),
        ("key",),
        accept=random_looking,
    ),
    *(_detector(kind, pattern, triggers, (0,)) for kind, pattern, triggers in _LOOSE_KEYS),
)
