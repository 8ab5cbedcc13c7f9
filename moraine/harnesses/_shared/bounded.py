"""Bounds on what a small input may cost: decompressed size, and the memory a JSON text takes once parsed.

A few kilobytes of zstd can hold gigabytes, and a JSON text of tiny containers (``[{},{},...]``) takes some twenty
times its size as Python objects: a 3.6 KB Zed row took an ingest from 0.4 to 1.65 GB. ``decompress_zstd`` stops
at a limit while decompressing (never allocating the declared size up front); ``check_json_cost`` refuses, before
parsing, a text whose objects would take more than a limit, by an estimate from its structural characters that
never undercounts: every byte is counted as a 4-byte character (one, in a text of ASCII without ``\\u`` escapes), every ``{`` as a dict with keys, every ``[`` as a list, every ``,`` and ``:`` as one
more object, all at their CPython sizes rounded up (a comma or a brace inside a string counts too, so text with
much punctuation is overestimated, by at most that).
"""

from __future__ import annotations

import io

import zstandard

__all__ = ["TooLarge", "check_json_cost", "decompress_zstd", "json_cost"]

_CHUNK = 1 << 20
# CPython 3.12 sizes, rounded up, plus the 8-byte slot each object takes in its container.
_DICT = 240  # a dict of one to five keys (sys.getsizeof: 184-232)
_LIST = 64  # an empty list (56), its elements counted by their commas
_ITEM = 64  # a short str, int or float (28-57), or the key/value pair a ':' separates
_CHAR = 4  # a str holds up to 4 bytes a character (one emoji makes all of a string's characters 4 bytes)


class TooLarge(ValueError):
    """An input over one of the bounds (the message says which, in words a user can act on)."""


def decompress_zstd(data: bytes, limit: int) -> bytes:
    """Return ``data`` decompressed (zstd), reading at most ``limit`` bytes of output.

    Raises:
        TooLarge: the output exceeds ``limit`` bytes.
        zstandard.ZstdError: ``data`` is not zstd.
    """
    out = bytearray()
    with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data), read_across_frames=True) as reader:
        while chunk := reader.read(_CHUNK):
            out += chunk
            if len(out) > limit:
                raise TooLarge(f"decompresses to more than {_mb(limit)}")
    return bytes(out)


def json_cost(text: str | bytes) -> int:
    """Return an upper estimate of the bytes ``json.loads(text)`` takes as Python objects (see the module)."""
    if isinstance(text, str):  # counted as it is (a row of a SQLite store arrives as str): no encoded copy
        wide = not text.isascii() or "\\u" in text
        marks = (text.count("{"), text.count("["), text.count(",") + text.count(":"))
    else:
        wide = not text.isascii() or b"\\u" in text  # else every string is one byte a character
        marks = (text.count(b"{"), text.count(b"["), text.count(b",") + text.count(b":"))
    braces, brackets, items = marks
    return (_CHAR if wide else 1) * len(text) + _DICT * braces + _LIST * brackets + _ITEM * items


def check_json_cost(text: str | bytes, limit: int) -> None:
    """Raise ``TooLarge`` when parsing ``text`` could take more than ``limit`` bytes of memory."""
    cost = json_cost(text)
    if cost > limit:
        raise TooLarge(
            f"would take up to {_mb(cost)} of memory once parsed ({_mb(len(text))} of JSON), over the "
            f"{_mb(limit)} one record may take"
        )


def _mb(size: int) -> str:
    return f"{size / (1 << 20):.0f} MiB" if size >= 1 << 20 else f"{size} bytes"
