"""Mask credentials in text bound for a log or a terminal: the daemon log must not hand out the store's password.

Masked, keeping what identifies the thing (scheme, user, host, key name):

- a password in a URL's user part: ``http://moraine:hunter2@db:8123`` -> ``http://moraine:***@db:8123`` (a password
  containing ``@`` is masked up to the last ``@`` before the host);
- ``password=``/``secret=``/``token=``/``api_key=``-style assignments (the key ends with the word, so
  ``DB_PASSWORD=`` is masked and ``max_tokens=`` is not), with ``=`` or ``:``, quoted or not (DSN query
  strings, ``key=value`` settings, JSON-ish dumps): the value becomes ``***``;
- the credential of an ``Authorization:`` header (any scheme) or of a bare ``Bearer <token>``.

This is not the ingest redactor (``moraine.redact``), which looks for secrets inside trace content; these are the
shapes under which our own configuration and errors can carry a credential into a log line.
"""

from __future__ import annotations

import re

__all__ = ["MASK", "mask_credentials"]

MASK = "***"

_URL_PASSWORD = re.compile(r"(?P<head>\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s/:@]*:)[^\s/]*(?=@[^\s@/]*)")
_ASSIGNMENT = re.compile(
    r"(?P<head>\b[\w.\-]*?(?:password|passwd|passphrase|secret|token|(?:api|access|secret|private)[_\-]?key)"
    r"[\"']?\s*[=:]\s*)(?P<value>\"[^\"]*\"|'[^']*'|[^\s&;,\"')}\]]+)",
    re.IGNORECASE,
)
_AUTH_SCHEME = re.compile(
    r"(?P<head>\b(?:authorization[\"']?\s*[=:]\s*[\"']?[a-z]+\s+|bearer\s+))[A-Za-z0-9._~+/\-]{8,}=*",
    re.IGNORECASE,
)


def mask_credentials(text: str) -> str:
    """Return ``text`` with every credential of the shapes above replaced by ``***``."""
    if not text:
        return text
    text = _URL_PASSWORD.sub(lambda m: m.group("head") + MASK, text)
    text = _ASSIGNMENT.sub(_mask_assignment, text)
    return _AUTH_SCHEME.sub(lambda m: m.group("head") + MASK, text)


def _mask_assignment(match: re.Match[str]) -> str:
    value = match.group("value")
    if value == MASK or value.startswith(MASK):
        return match.group(0)
    quote = value[0] if value[0] in "\"'" and len(value) > 1 else ""
    return f"{match.group('head')}{quote}{MASK}{quote}"
