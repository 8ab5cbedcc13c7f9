"""Secrets hidden by base64: ``echo cGFzc3dvcmQ9... | base64 -d``, a Kubernetes secret's data, a data URI.

A base64 run is redacted whole when it decodes to text that assigns a secret (``password=...``, ``api_key: ...``)
or, once such a word was seen, holds a URL with a password. Its trigger is the encoding of a secret word: base64 turns each 3 bytes into 4
characters, so a word has three encodings (one per offset of its first byte within a group), each with a core of
characters that depends on the word alone; those cores, for the usual spellings of each word, are the triggers.
"""

from __future__ import annotations

import base64
import binascii
import re

from moraine.redact.detector import detector

__all__ = ["ENCODED_DETECTORS", "encoded_cores"]

_WORDS = ("password", "passwd", "secret", "token", "api_key", "apikey", "access_key", "passphrase")
_SPELLINGS = tuple(
    spelling for word in _WORDS for spelling in (word, word.upper(), word.capitalize())
)  # base64 is case-sensitive in what it encodes
_ASSIGNS = re.compile(
    r"(?i)(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key"
    r"|credentials?)[\w-]*[\"']?[ \t]*[=:][ \t]*[\"']?[^\s\"']{3}"
    r"|://[^\s/:@]+:[^\s/@]+@"
)
_RUN = r"(?<![A-Za-z0-9+/_=-])(?P<run>[A-Za-z0-9+/_-]{12,4096}={0,2})(?![A-Za-z0-9+/_=-])"


def encoded_cores(word: bytes) -> set[str]:
    """Return the base64 characters ``word`` alone determines, at each of its three offsets in a 3-byte group."""
    cores: set[str] = set()
    for offset in range(3):
        low = base64.b64encode(b"\x00" * offset + word + b"\x00\x00").decode()
        high = base64.b64encode(b"\xff" * offset + word + b"\xff\xff").decode()
        same = "".join(a if a == b else " " for a, b in zip(low, high, strict=True))
        cores.add(max(same.split(), key=len))  # the characters no neighbouring byte changes
    return cores


def _decodes_to_secret(run: str) -> bool:
    body = run.rstrip("=")
    if len(body) % 4 == 1:
        return False
    urlsafe = "-" in body or "_" in body
    try:
        raw = base64.b64decode(
            body + "=" * (-len(body) % 4), altchars=b"-_" if urlsafe else None, validate=True
        )
    except (binascii.Error, ValueError):
        return False
    return _ASSIGNS.search(raw.decode("utf-8", "replace")) is not None


ENCODED_DETECTORS = (
    detector(
        "encoded-secret",
        _RUN,
        tuple(sorted({re.escape(core) for s in _SPELLINGS for core in encoded_cores(s.encode())})),
        ("run",),
        accept=_decodes_to_secret,
    ),
)
