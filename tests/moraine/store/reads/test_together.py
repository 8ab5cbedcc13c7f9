"""Reads run together: results in order, in the caller's context; statements over several tables, each its rows."""

from __future__ import annotations

import contextvars

import pytest

from moraine.store.client import Store
from moraine.store.reads.together import query_together, together


def test_statements_of_different_shapes_return_their_own_rows_and_an_empty_one_returns_no_rows(
    store: Store,
) -> None:
    store.command(f"CREATE TABLE {store.table('a')} (k UInt64, name String) ENGINE = MergeTree ORDER BY k")
    store.command(f"CREATE TABLE {store.table('b')} (k UInt64, n UInt32, at Nullable(DateTime64(3, 'UTC'))) "
                  "ENGINE = MergeTree ORDER BY k")  # fmt: skip
    store.insert("a", [[1, "one"], [2, "two"]], ["k", "name"])
    store.insert("b", [[1, 7, None]], ["k", "n", "at"])
    rows = query_together(
        store,
        {"k": 1},
        f"SELECT k, name FROM {store.table('a')} WHERE k = {{k:UInt64}}",
        f"SELECT n, at FROM {store.table('b')} WHERE k = {{k:UInt64}}",
        f"SELECT k FROM {store.table('b')} WHERE k = 99",
    )
    assert rows == [[(1, "one")], [(7, None)], []]


_CALL = contextvars.ContextVar("call", default="none")


def test_reads_return_in_order_in_the_callers_context_and_failures_reach_the_caller(store: Store) -> None:
    _CALL.set("call-7")  # a tool call's cancellation tag travels the same way
    reads = [lambda n=n: (n, _CALL.get(), store.query(f"SELECT {n}")[0][0]) for n in range(4)]
    assert together(*reads) == [(n, "call-7", n) for n in range(4)]

    def fails() -> None:
        raise ValueError("bad read")

    with pytest.raises(ValueError, match="bad read"):
        together(lambda: 1, fails)
