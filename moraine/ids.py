"""Moraine MCP IDs: opaque to callers, cheap to resolve for us.

Every ID is ``<kind>:<prefix>_<token>`` where the token is Crockford base32 (upper case, no padding) of a fixed
number of big-endian bytes: a 64-bit session key, plus a 32-bit turn sequence (turns) or a 32-bit event sequence
(events). Base32 of big-endian bytes sorts like the numbers, so "event ID ascending" is "(session key, sequence)
ascending". The session key is a hash of the source name and the harness's own session id, so the same trace
files always give the same IDs.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "EventId",
    "IdKind",
    "InvalidIdError",
    "MAX_NATIVE_ID_CHARS",
    "MAX_TOKEN_CHARS",
    "MORAINE_ID_PATTERN",
    "NATIVE_ID_PATTERN",
    "NON_SPACE",
    "SessionId",
    "TurnId",
    "could_be_native_id",
    "event_id",
    "parse_id",
    "session_id",
    "session_key",
    "turn_id",
    "well_formed_kind",
]

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_DECODE = {c: i for i, c in enumerate(_ALPHABET)}


class IdKind(StrEnum):
    SESSION = "session"
    TURN = "turn"
    EVENT = "event"


_PREFIX = {IdKind.SESSION: "ses", IdKind.TURN: "turn", IdKind.EVENT: "evt"}
_BYTES = {IdKind.SESSION: 8, IdKind.TURN: 12, IdKind.EVENT: 12}
_CHARS = {kind: (n * 8 + 4) // 5 for kind, n in _BYTES.items()}
_ID_RE = re.compile(r"^(session|turn|event):(ses|turn|evt)_([0-9A-HJKMNP-TV-Z]+)$")


class InvalidIdError(ValueError):
    """The string is not a well-formed Moraine MCP ID."""


def _encode(value: int, chars: int) -> str:
    out = []
    for _ in range(chars):
        out.append(_ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(out))


@dataclass(frozen=True, slots=True)
class SessionId:
    key: int

    def __str__(self) -> str:
        return f"session:ses_{_encode(self.key, _CHARS[IdKind.SESSION])}"


@dataclass(frozen=True, slots=True)
class TurnId:
    key: int
    turn_seq: int

    def __str__(self) -> str:
        return f"turn:turn_{_encode((self.key << 32) | self.turn_seq, _CHARS[IdKind.TURN])}"


@dataclass(frozen=True, slots=True)
class EventId:
    key: int
    seq: int

    def __str__(self) -> str:
        return f"event:evt_{_encode((self.key << 32) | self.seq, _CHARS[IdKind.EVENT])}"


def session_key(source: str, harness_session_id: str) -> int:
    """Return the stable 64-bit key of a session (never 0)."""
    digest = hashlib.sha256(f"moraine:session:v1\0{source}\0{harness_session_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") or 1


def session_id(key: int) -> str:
    return str(SessionId(key))


def turn_id(key: int, turn_seq: int) -> str:
    return str(TurnId(key, turn_seq))


def event_id(key: int, seq: int) -> str:
    return str(EventId(key, seq))


def parse_id(text: str) -> SessionId | TurnId | EventId:
    """Parse a Moraine MCP ID.

    Raises:
        InvalidIdError: the text is not a well-formed ID (wrong prefix, alphabet, length or zero parts).
    """
    match = _ID_RE.match(text)
    if match is None:
        raise InvalidIdError("id is not a valid Moraine MCP ID")
    kind = IdKind(match.group(1))
    if match.group(2) != _PREFIX[kind] or len(match.group(3)) != _CHARS[kind]:
        raise InvalidIdError("id is not a valid Moraine MCP ID")
    value = 0
    for char in match.group(3):
        value = (value << 5) | _DECODE[char]
    if value >> (_BYTES[kind] * 8):
        raise InvalidIdError("id is not a valid Moraine MCP ID")
    if kind is IdKind.SESSION:
        if value == 0:
            raise InvalidIdError("id is not a valid Moraine MCP ID")
        return SessionId(value)
    key, seq = value >> 32, value & 0xFFFFFFFF
    if key == 0 or seq == 0:
        raise InvalidIdError("id is not a valid Moraine MCP ID")
    return TurnId(key, seq) if kind is IdKind.TURN else EventId(key, seq)


MAX_NATIVE_ID_CHARS = 256  # longer text is never a harness's session ID
MAX_TOKEN_CHARS = 64  # a Moraine ID's token: ours are 13 or 20 characters; longer is never a Moraine ID

# A character that is not whitespace (``str.isspace``, what the server's trimming strips), spelled out so that the
# published patterns mean the same in ECMA-262 (JSON Schema's dialect) and in Python, whose ``\\s`` sets differ
# (Python counts \\x1c-\\x1f and \\x85 as space, ECMA-262 does not; ECMA-262 counts \\ufeff).
NON_SPACE = r"[^\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"

# The shapes the published arguments schemas carry (spec/*/arguments.schema.json; tests/moraine/test_ids.py holds
# them equal). A Moraine ID is well formed when its kind, prefix and token alphabet are right: the interface
# document's own illustrative IDs (26 characters, some letters outside base32) are well formed and not found, so the
# shape allows any upper-case token up to MAX_TOKEN_CHARS, and one that cannot be ours names nothing.
MORAINE_ID_PATTERN = f"(?:session:ses|turn:turn|event:evt)_[0-9A-Z]{{1,{MAX_TOKEN_CHARS}}}"
# A harness's own session ID: one token (a UUID, ``ses_…``, a directory name) that does not start with a Moraine
# kind (``session:`` ...), at most MAX_NATIVE_ID_CHARS long (the schema says so with maxLength).
NATIVE_ID_PATTERN = f"(?!(?:session|turn|event):){NON_SPACE}+"
_SHAPE_RE = re.compile(f"^{MORAINE_ID_PATTERN}$")
_NATIVE_RE = re.compile(f"^{NATIVE_ID_PATTERN}$")


def well_formed_kind(text: str) -> IdKind | None:
    """Return the kind of a well-formed Moraine ID (the published shape), or None when ``text`` has another shape.

    A well-formed ID that ``parse_id`` refuses (another length, a letter outside base32) is one Moraine never
    issued: it names nothing, so it is not found rather than malformed.
    """
    return IdKind(text.split(":", 1)[0]) if _SHAPE_RE.match(text) else None


def could_be_native_id(text: str) -> bool:
    """Tell whether ``text`` could be a harness's own session ID rather than a malformed Moraine ID: one token
    (a UUID, ``ses_…``, a directory name) that does not start with a Moraine ID kind (``session:`` ...); surrounding
    whitespace is ignored."""
    text = text.strip()
    return len(text) <= MAX_NATIVE_ID_CHARS and _NATIVE_RE.match(text) is not None
