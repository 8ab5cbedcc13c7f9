"""Tagged lookups: differently shaped rows of several tables come back from one statement, by branch."""

from __future__ import annotations

from moraine.store.client import Store
from moraine.store.reads.tagged import Branch, query_tagged


def test_branches_of_different_shapes_return_their_own_rows_and_an_empty_branch_returns_no_rows(
    store: Store,
) -> None:
    store.command(f"CREATE TABLE {store.table('a')} (k UInt64, name String) ENGINE = MergeTree ORDER BY k")
    store.command(f"CREATE TABLE {store.table('b')} (k UInt64, n UInt32, at Nullable(DateTime64(3, 'UTC'))) "
                  "ENGINE = MergeTree ORDER BY k")  # fmt: skip
    store.insert("a", [[1, "one"], [2, "two"]], ["k", "name"])
    store.insert("b", [[1, 7, None]], ["k", "n", "at"])
    rows = query_tagged(
        store,
        [
            Branch("a", "k, name", f"{store.table('a')} WHERE k = {{k:UInt64}}"),
            Branch("b", "n, at", f"{store.table('b')} WHERE k = {{k:UInt64}}"),
            Branch("none", "k", f"{store.table('b')} WHERE k = 99"),
        ],
        {"k": 1},
    )
    assert rows == {"a": [(1, "one")], "b": [(7, None)], "none": []}
