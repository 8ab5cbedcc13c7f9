"""Stream the elements of a file that is one JSON array, without holding the whole document's objects at once.

Data exports (ChatGPT's and Claude.ai's ``conversations.json``) are a single array that can run to hundreds of
megabytes. ``array_elements`` reads the file in chunks and decodes one element at a time; an element larger than
the buffer grows it (doubling, so the work stays linear), up to ``MAX_ELEMENT_CHARS``. Anything that is not an array, or an element that does
not decode, ends the iteration with ``ArrayError`` after the elements before it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

__all__ = ["MAX_ELEMENT_CHARS", "ArrayError", "array_elements", "stream_elements"]

_CHUNK = 1 << 20
_SKIP = " \t\r\n,"
_DECODER = json.JSONDecoder()
# One element (a conversation) is decoded whole: at most this long. The largest conversation in the exports we
# have seen is a few MB; one of 32 Mi characters takes a few hundred MB once decoded and ingested.
MAX_ELEMENT_CHARS = 32 * 1024 * 1024


class ArrayError(ValueError):
    """The file is not a JSON array, or one of its elements does not decode (the message says which)."""


def array_elements(path: Path, chunk: int = _CHUNK, max_element: int = MAX_ELEMENT_CHARS) -> Iterator[Any]:
    """Yield the elements of the JSON array in ``path``, in order.

    Raises:
        ArrayError: the file does not start an array, or an element is not valid JSON or longer than
            ``max_element`` characters (after those before it).
        OSError: the file cannot be read.
    """
    with path.open("r", encoding="utf-8-sig", errors="strict") as handle:
        yield from stream_elements(handle, chunk, max_element)


def stream_elements(
    handle: IO[str], chunk: int = _CHUNK, max_element: int = MAX_ELEMENT_CHARS
) -> Iterator[Any]:
    """Yield the elements of the JSON array read from the text stream ``handle`` (see ``array_elements``)."""
    buffer = handle.read(chunk).lstrip()
    if not buffer.startswith("["):
        raise ArrayError("not a JSON array")
    position, index, ended = 1, 0, False
    while True:
        while position < len(buffer) and buffer[position] in _SKIP:
            position += 1
        if position < len(buffer) and buffer[position] == "]":
            return
        try:
            element, end = _DECODER.raw_decode(buffer, position)
            if end >= len(buffer) and not ended:  # a number cut by the chunk's end decodes short
                raise json.JSONDecodeError("element reaches the end of the buffer", buffer, end)
        except json.JSONDecodeError as exc:
            if len(buffer) - position > max_element:
                raise ArrayError(
                    f"element {index} is longer than {max_element:,} characters, more than one is read at once"
                ) from exc
            more = "" if ended else handle.read(max(chunk, len(buffer)))
            if not more:
                if not ended:
                    ended = True
                    continue
                raise ArrayError(f"element {index} does not decode: {exc.msg}") from exc
            buffer = buffer[position:] + more
            position = 0
            continue
        yield element
        index += 1
        position = (
            end  # the buffer is cut only when refilled: cutting it after every element made it quadratic
        )
        if len(buffer) - position < chunk // 2 and not ended:
            more = handle.read(chunk)
            ended = not more
            buffer, position = buffer[position:] + more, 0
