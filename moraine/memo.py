"""A bounded memo: the results of a pure function of a string, for the strings traces repeat endlessly."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["Memo"]

V = TypeVar("V")


class Memo(dict[str, V]):
    """``compute``'s result per string, read as ``memo[text]`` (a hit is one dict lookup, in C), or as ``memo(text)``
    where strings can be long: one longer than ``longest`` is then computed at once, without hashing it first.

    At most ``entries`` results are kept: the memo is emptied when full (the values in use come back at once, and no
    entry needs bookkeeping). Strings longer than ``longest`` are computed each time and not kept: long texts (hashes,
    blobs, whole files) rarely repeat. ``compute`` must depend on its argument alone."""

    def __init__(self, compute: Callable[[str], V], entries: int, longest: int) -> None:
        super().__init__()
        self.compute = compute
        self.entries = entries
        self.longest = longest

    def __call__(self, key: str) -> V:
        return self.compute(key) if len(key) > self.longest else self[key]

    def __missing__(self, key: str) -> V:
        value = self.compute(key)
        if len(key) <= self.longest:
            if len(self) >= self.entries:
                self.clear()
            self[key] = value
        return value
