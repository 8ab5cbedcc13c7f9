"""Independent reads of one tool call, run at the same time on the store's connections.

A statement costs more than its rows on small lookups (parsing, planning, opening each table's parts), and one
connection runs one statement at a time; the reads of one tool call that do not depend on each other's results are
therefore sent together, each on its own connection, and the call waits for the slowest.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

from moraine.store.client import Store

__all__ = ["Branch", "query_tagged", "together"]

_READS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="moraine-read")


def together(*reads: Callable[[], Any]) -> list[Any]:
    """Run the reads at once (the first in this thread) and return their results in order.

    Each read runs in this call's context, so its statements carry the call's cancellation tag.
    """
    others = [_READS.submit(contextvars.copy_context().run, read) for read in reads[1:]]
    first = [reads[0]()] if reads else []
    return first + [future.result() for future in others]


@dataclass(frozen=True, slots=True)
class Branch:
    """One lookup: ``tag`` names it (Moraine's text, never user input), ``columns`` and ``source`` are SQL."""

    tag: str
    columns: str  # comma-separated expressions, returned in this order
    source: str  # what follows FROM (table, FINAL, WHERE, ORDER BY, LIMIT), with {name:Type} parameters


def query_tagged(
    store: Store, branches: Sequence[Branch], parameters: Mapping[str, Any]
) -> dict[str, list[tuple[Any, ...]]]:
    """Run every branch at once and return its rows by tag (a branch with no row maps to [])."""
    found = together(
        *(
            partial(store.query, f"SELECT {branch.columns} FROM {branch.source}", parameters)
            for branch in branches
        )
    )
    return {branch.tag: [tuple(row) for row in rows] for branch, rows in zip(branches, found, strict=True)}
