"""The store connection: settings every statement runs with, and the write generation (chDB and a server alike)."""

from __future__ import annotations

from moraine.store.client import Store


def test_statements_are_interpreted_not_jit_compiled(store: Store) -> None:
    # A compiled expression embeds the query's parameters, so it is rarely reused and the compiling call is the slow one.
    rows = store.query(
        "SELECT getSetting('compile_expressions'), getSetting('compile_aggregate_expressions'), "
        "getSetting('compile_sort_description')"
    )
    assert [bool(value) for value in rows[0]] == [False, False, False]


def test_an_embedded_store_reads_on_one_thread_a_server_on_its_own_default(store: Store) -> None:
    # A call runs its reads at once on separate connections; in-process, each read's own threads only competed.
    value, changed = store.query("SELECT value, changed FROM system.settings WHERE name = 'max_threads'")[0]
    if store.dsn.startswith("chdb:"):
        assert (str(value), int(changed)) == ("1", 1)
    else:
        assert int(changed) == 0  # not set by us: the server's own default applies


def test_write_generation_moves_after_every_write_through_any_store_of_the_database(store: Store) -> None:
    if not store.dsn.startswith("chdb:"):
        assert store.write_generation is None  # a server may have writers this process never sees
        return
    other = Store(store.dsn, store.database)  # a second connection of this process (the daemon has several)
    try:
        seen = [store.write_generation]
        store.query(f"SELECT count() FROM {store.table('events')}")
        assert store.write_generation == seen[-1]  # reads do not move it
        other.command(f"CREATE TABLE {store.table('scratch')} (x UInt8) ENGINE = Memory")
        seen.append(store.write_generation)
        store.insert("scratch", [[1]], ["x"])
        seen.append(other.write_generation)
        other.insert_columns("scratch", [[2, 3]], ["x"])
        seen.append(store.write_generation)
        assert len(set(seen)) == 4 and all(isinstance(g, int) for g in seen)
    finally:
        other.close()


def test_a_statement_runs_on_another_connection_while_one_is_busy(store: Store) -> None:
    store.set_setting("max_result_rows", 1000)
    with store._connection() as busy:  # noqa: SLF001 -- hold one connection as a long statement would
        # Served by a second connection, with the same settings (the first stays lent out).
        rows = store.query("SELECT getSetting('compile_expressions'), getSetting('max_result_rows')")
        assert [int(value) for value in rows[0]] == [0, 1000]
        assert busy.query("SELECT 2").result_rows == [(2,)]
