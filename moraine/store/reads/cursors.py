"""Opaque, signed continuation cursors for ``open`` and ``list_sessions``.

A cursor is ``m1.<payload>.<mac>``: the payload is compact JSON in base64url (no padding), the MAC an HMAC-SHA256
(first 16 bytes) over the cursor's purpose and payload. Anything edited, truncated or minted for the other tool fails
verification; the handler turns that into ``invalid_request`` on the ``cursor`` field.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from dataclasses import asdict, dataclass
from typing import Any, Literal

from moraine.errors import RequestError

__all__ = [
    "CURSOR_PATTERN",
    "ListCursor",
    "OpenCursor",
    "decode_list_cursor",
    "decode_open_cursor",
    "encode_list_cursor",
    "encode_open_cursor",
    "malformed_cursor",
    "stale_open_cursor",
]

_VERSION = "m1"
_MAX_CHARS = 4096
_MAC_BYTES = 16
# The published shape of a cursor (spec/open and spec/list_sessions arguments: pattern and maxLength 4096): the
# version, a base64url payload and the MAC's 22 base64url characters. A token of this shape can still fail
# verification; one of another shape never passes it.
CURSOR_PATTERN = rf"^{_VERSION}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{{{(_MAC_BYTES * 8 + 5) // 6}}}$"
_OPEN_REOPEN = "reopen the session or turn ID with a limit to start a new expansion"
_LIST_RESTART = "repeat the list_sessions call without a cursor to start again"


@dataclass(frozen=True, slots=True)
class OpenCursor:
    """Where an expansion of a session (turns) or a turn (events) continues, pinned to a snapshot.

    ``after`` is the keyset anchor (last turn_seq or event seq returned), ``upto`` the snapshot bound (the
    session's turn count or the turn's last seq at the first page), ``generation`` the session's generation then.
    """

    kind: Literal["session", "turn"]
    key: int
    turn_seq: int
    limit: int
    after: int
    upto: int
    generation: int


@dataclass(frozen=True, slots=True)
class ListCursor:
    """Where a ``list_sessions`` listing continues: the last row's (updated_at ms, session key) and its filter."""

    filter_sig: str
    updated_ms: int
    key: int


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    """Decode canonical unpadded base64url only (other spellings of the same bytes are rejected)."""
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if _b64(data) != text:
        raise ValueError("not canonical base64url")
    return data


def _key(secret: str | bytes) -> bytes:
    return secret.encode() if isinstance(secret, str) else secret


def _mac(secret: str | bytes, purpose: str, payload: bytes) -> bytes:
    return hmac.new(_key(secret), purpose.encode() + b"\0" + payload, hashlib.sha256).digest()[:_MAC_BYTES]


def _encode(secret: str | bytes, purpose: str, fields: dict[str, Any]) -> str:
    payload = json.dumps(fields, separators=(",", ":"), sort_keys=True).encode()
    return f"{_VERSION}.{_b64(payload)}.{_b64(_mac(secret, purpose, payload))}"


def _decode(secret: str | bytes, purpose: str, token: str, guidance: str) -> dict[str, Any]:
    def bad(why: str) -> RequestError:
        return RequestError(f"cursor {why}; {guidance}", field="cursor")

    if not isinstance(token, str) or not token or len(token) > _MAX_CHARS:
        raise bad("is not a valid continuation cursor")
    parts = token.split(".")
    if len(parts) != 3 or parts[0] != _VERSION:
        raise bad("is not a valid continuation cursor")
    try:
        payload, mac = _unb64(parts[1]), _unb64(parts[2])
    except (binascii.Error, ValueError):
        raise bad("is not a valid continuation cursor") from None
    if not hmac.compare_digest(mac, _mac(secret, purpose, payload)):
        other = "list" if purpose == "open" else "open"
        if hmac.compare_digest(mac, _mac(secret, other, payload)):
            raise bad(f"belongs to {'list_sessions' if other == 'list' else 'open'}, not this tool")
        raise bad("failed verification (it was altered or was not issued by this server)")
    try:
        fields = json.loads(payload)
    except ValueError:
        raise bad("is not a valid continuation cursor") from None
    if not isinstance(fields, dict):
        raise bad("is not a valid continuation cursor")
    return fields


def encode_open_cursor(secret: str | bytes, cursor: OpenCursor) -> str:
    """Return the signed token for an ``open`` continuation."""
    return _encode(secret, "open", asdict(cursor))


def decode_open_cursor(secret: str | bytes, token: str) -> OpenCursor:
    """Verify and decode an ``open`` continuation.

    Raises:
        RequestError: the token is malformed, altered, or not an ``open`` cursor (field ``cursor``).
    """
    fields = _decode(secret, "open", token, _OPEN_REOPEN)
    try:
        cursor = OpenCursor(**fields)
    except TypeError:
        raise RequestError(
            f"cursor is not a valid continuation cursor; {_OPEN_REOPEN}", field="cursor"
        ) from None
    if cursor.kind not in ("session", "turn") or not all(
        isinstance(v, int) and v >= 0
        for v in (cursor.key, cursor.turn_seq, cursor.limit, cursor.after, cursor.upto, cursor.generation)
    ):
        raise RequestError(f"cursor is not a valid continuation cursor; {_OPEN_REOPEN}", field="cursor")
    return cursor


def malformed_cursor(tool: str) -> RequestError:
    """Return the error for a token without a cursor's published shape, with how ``tool``'s caller starts again."""
    guidance = _LIST_RESTART if tool == "list_sessions" else _OPEN_REOPEN
    return RequestError(f"cursor is not a valid continuation cursor; {guidance}", field="cursor")


def stale_open_cursor() -> RequestError:
    """Return the error for a cursor whose snapshot no longer matches the stored session."""
    return RequestError(
        f"cursor is stale: the session was re-indexed since the first page; {_OPEN_REOPEN}", field="cursor"
    )


def encode_list_cursor(secret: str | bytes, cursor: ListCursor) -> str:
    """Return the signed token for a ``list_sessions`` continuation."""
    return _encode(secret, "list", asdict(cursor))


def decode_list_cursor(secret: str | bytes, token: str, filter_sig: str) -> ListCursor:
    """Verify and decode a ``list_sessions`` continuation issued for the same filter and sort.

    Raises:
        RequestError: malformed, altered, minted by ``open``, or issued for another filter/sort (field ``cursor``).
    """
    fields = _decode(secret, "list", token, _LIST_RESTART)
    try:
        cursor = ListCursor(**fields)
    except TypeError:
        raise RequestError(
            f"cursor is not a valid continuation cursor; {_LIST_RESTART}", field="cursor"
        ) from None
    if not isinstance(cursor.updated_ms, int) or not isinstance(cursor.key, int):
        raise RequestError(f"cursor is not a valid continuation cursor; {_LIST_RESTART}", field="cursor")
    if cursor.filter_sig != filter_sig:
        raise RequestError(
            "cursor does not match this list_sessions filter and sort; "
            "repeat the call with the original filters, or drop the cursor to start again",
            field="cursor",
        )
    return cursor
