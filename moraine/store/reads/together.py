"""Independent reads of one tool call, run at the same time on the store's connections.

A statement costs more than its rows on small lookups (parsing, planning, opening each table's parts), and one
connection runs one statement at a time; the reads of one tool call that do not depend on each other's results are
therefore sent together, each on its own connection, and the call waits for the slowest.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from moraine.store.client import Store

__all__ = ["query_together", "together"]

_READS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="moraine-read")


def together(*reads: Callable[[], Any]) -> list[Any]:
    """Run the reads at once (the first in this thread) and return their results in order.

    Each read runs in this call's context, so its statements carry the call's cancellation tag.
    """
    others = [_READS.submit(contextvars.copy_context().run, read) for read in reads[1:]]
    first = [reads[0]()] if reads else []
    return first + [future.result() for future in others]


def query_together(
    store: Store, parameters: Mapping[str, Any], *statements: str
) -> list[list[tuple[Any, ...]]]:
    """Run independent statements (sharing ``parameters``) at once; return each one's rows, in order."""
    return together(*(partial(store.query, sql, parameters) for sql in statements))
