"""A bounded memo: the results of a pure function by argument, for the values traces repeat endlessly."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["Memo"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """``compute``'s result per argument, at most ``entries`` of them: emptied when full (the values in use come
    back at once, and no entry needs bookkeeping). ``compute`` must depend on its argument alone."""

    def __init__(self, compute: Callable[[K], V], entries: int) -> None:
        self.compute = compute
        self.entries = entries
        self.values: dict[K, V] = {}

    def __call__(self, key: K) -> V:
        found = self.values.get(key)
        if found is None:
            found = self.compute(key)
            if len(self.values) >= self.entries:
                self.values.clear()
            self.values[key] = found
        return found
