"""Settings every store statement runs with (chDB and a ClickHouse server alike)."""

from __future__ import annotations

from moraine.store.client import Store


def test_statements_are_interpreted_not_jit_compiled(store: Store) -> None:
    # A compiled expression embeds the query's parameters, so it is rarely reused and the compiling call is the slow one.
    rows = store.query(
        "SELECT getSetting('compile_expressions'), getSetting('compile_aggregate_expressions'), "
        "getSetting('compile_sort_description')"
    )
    assert [bool(value) for value in rows[0]] == [False, False, False]
