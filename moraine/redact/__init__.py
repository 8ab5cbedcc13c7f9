"""Secret redaction, applied by ingest to everything before it is stored (on by default; ``redact = false``).

Two sources of detectors (``moraine.redact.ruleset`` and ``moraine.redact.context``): the maintained Betterleaks
ruleset shipped in the ``kingfisher-secret-scanner`` package (provider tokens: several hundred shapes, from AWS and
GitHub to Stripe, Hugging Face and SendGrid), and our own rules for credentials known by their surroundings
(passwords in URLs, options, headers and assignments, key blocks, lone AWS secret keys). Each secret becomes
``[REDACTED:<kind>]``; the text around it is kept. The ruleset is read and compiled once per process, on first use
(its translation is cached, user-only, in ``$XDG_CACHE_HOME/moraine``).
"""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path
from typing import Any

from moraine.memo import Memo
from moraine.redact.context import CONTEXT_DETECTORS
from moraine.redact.encoded import ENCODED_DETECTORS
from moraine.redact.phrases import PHRASE_DETECTORS
from moraine.redact.redactor import Redactor
from moraine.redact.ruleset import Ruleset, load_ruleset
from moraine.redact.shapes import LONE_MAX, LONE_MIN, SHAPE_DETECTORS, lone_token

__all__ = ["OWN_DETECTORS", "redact_text", "redact_value", "ruleset"]

_SECRET_KEY = re.compile(
    r"(?i)^[A-Za-z0-9_.-]*(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key"
    r"|private[_-]?key|credentials?)$"
)
# Our own shapes, after the ruleset's (on a tie the ruleset names the secret).
OWN_DETECTORS = (*CONTEXT_DETECTORS, *PHRASE_DETECTORS, *SHAPE_DETECTORS, *ENCODED_DETECTORS)
_lock = threading.Lock()
_loaded: tuple[Ruleset, Redactor] | None = None


def _redactor() -> tuple[Ruleset, Redactor]:
    global _loaded
    if _loaded is None:
        with _lock:
            if _loaded is None:
                rules = load_ruleset(_cache_dir())
                _loaded = (rules, Redactor([*rules.detectors, *OWN_DETECTORS]))
    return _loaded


def _cache_dir() -> Path:
    """Where the translated ruleset is kept: ``$XDG_CACHE_HOME/moraine`` (or ``~/.cache/moraine``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "moraine"


def ruleset() -> Ruleset:
    """Return the loaded ruleset (its source package and version, its detectors, the rules it could not compile)."""
    return _redactor()[0]


def redact_text(text: str) -> str:
    """Return ``text`` with every recognized secret replaced."""
    if len(text) < 8:  # no secret shape is shorter ("pwd=abcd")
        return text
    return _memo(text)  # a long text is redacted without being hashed for the memo first


def _redact(text: str) -> str:
    if (  # one random-looking token and nothing else; IDs and hashes (one case only) are told apart here, in C
        LONE_MIN <= len(text) <= LONE_MAX
        and not (text.islower() or text.isupper())
        and (lone := lone_token(text)) is not None
    ):
        return lone
    return _redactor()[1].redact(text)


# Traces repeat short strings endlessly (tool names, paths, status lines, IDs): four in five of the strings a
# corpus redacts were redacted before. Their results are memoised (the redaction of a text depends on it alone),
# short ones only and a bounded number (at most some 10 MB).
_memo = Memo(_redact, entries=1 << 15, longest=256)


def redact_value(value: Any) -> Any:
    """Return a JSON value with secrets in its strings replaced (values of secret-named keys wholesale)."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        return _redact_dict(value)
    if isinstance(value, list | tuple):
        return [redact_value(item) for item in value]
    return value


def _redact_dict(value: dict[Any, Any]) -> dict[Any, Any]:
    # redact_value over the items, inlined for the common leaves (most values are short strings and numbers)
    out: dict[Any, Any] = {}
    for key, item in value.items():
        if isinstance(item, str):
            if item and isinstance(key, str) and _secret_named(key):
                out[key] = "[REDACTED:password]"
            else:
                out[key] = item if len(item) < 8 else redact_text(item)
        elif isinstance(item, dict):
            out[key] = _redact_dict(item)
        elif isinstance(item, list | tuple):
            out[key] = [redact_value(entry) for entry in item]
        else:
            out[key] = item
    return out


# Whether a key names a secret, per key seen: traces repeat the same few hundred keys (bounded all the same).
_SECRET_NAMED: dict[str, bool] = {}
_SECRET_NAMED_ENTRIES = 1 << 14
# The last three letters of a key _SECRET_KEY matches (password, passwd, passphrase, secret, token, ...key,
# credential, credentials): an ASCII key ending otherwise (an ID, a UUID) is told apart without the regex.
_SECRET_ENDINGS = frozenset({"ord", "swd", "ase", "ret", "ken", "key", "ial", "als"})


def _secret_named(key: str) -> bool:
    named = _SECRET_NAMED.get(key)
    if named is None:
        if key.isascii() and key[-3:].lower() not in _SECRET_ENDINGS and not key.endswith("\n"):
            named = False
        else:
            named = _SECRET_KEY.match(key) is not None
        if len(_SECRET_NAMED) >= _SECRET_NAMED_ENTRIES:
            _SECRET_NAMED.clear()
        _SECRET_NAMED[key] = named
    return named
