"""Migrations on a store that already holds data: the point-lookup layout (008) keeps every row of the three
tables it rebuilds and leaves them with small granules in Compact parts; the vector granules (010) keep every vector
and the nearest-neighbour search over them."""

from __future__ import annotations

from pathlib import Path


from moraine.store.reads.vectors import nearest
from moraine.store.client import Store
from moraine.store.reads.search import session_lengths_sql
from moraine.ingest.rows import USAGE_COLUMNS
from moraine.store.recovery import delete_stream_tail

CODEX = Path(__file__).parents[2] / "harnesses" / "codex" / "home" / ".codex"
REBUILT = ("events", "turns", "sessions")


def _rows(store: Store, table: str) -> list[tuple[object, ...]]:
    return sorted(tuple(row) for row in store.query(f"SELECT * FROM {store.table(table)}"))


def _ddl(store: Store, table: str) -> str:
    return str(store.query(f"SHOW CREATE TABLE {store.table(table)}")[0][0])


def _part_types(store: Store, table: str) -> set[str]:
    rows = store.query(
        "SELECT DISTINCT part_type FROM system.parts WHERE database = {db:String} AND table = {t:String} AND active",
        {"db": store.database, "t": table},
    )
    return {str(row[0]) for row in rows}


def test_point_lookup_layout_keeps_every_row(store: Store, store_dsn: str, ingest_into_store) -> None:  # type: ignore[no-untyped-def]
    ingest_into_store([CODEX])
    before = {table: _rows(store, table) for table in REBUILT}
    assert len(before["events"]) > 20 and before["turns"] and before["sessions"]
    # Put the store back where 007 left it: the default layout, 008 not recorded.
    for table in REBUILT:
        name = store.table(table)
        old = _ddl(store, table).split("SETTINGS", 1)[0]
        store.command(f"RENAME TABLE {name} TO {name}_old")
        store.command(old + " SETTINGS index_granularity = 1024, min_bytes_for_wide_part = 0")
        store.command(f"INSERT INTO {name} SELECT * FROM {name}_old")
        store.command(f"DROP TABLE {name}_old")
        assert _part_types(store, table) == {"Wide"}
    store.command(f"DELETE FROM {store.table('schema_migrations')} WHERE version = 8")

    reopened = Store.open(store_dsn, database=store.database)
    try:
        for table in REBUILT:
            assert "index_granularity = 128" in _ddl(reopened, table)
            assert _part_types(reopened, table) == {"Compact"}
            assert _rows(reopened, table) == before[table]
        tables = {str(row[0]) for row in reopened.query(f"SHOW TABLES FROM {store.database}")}
        assert not {f"{table}_rebuild" for table in REBUILT} & tables
        assert reopened.migrate() == []  # recorded: a second open does not copy again
    finally:
        reopened.close()


def _session_lengths(store: Store, keys: list[int], projections: bool = True) -> list[tuple[object, ...]]:
    """The ranking's own session-length read, answered from the projection or (projections off) from the rows."""
    sql = session_lengths_sql(store) + " ORDER BY session_key"
    if not projections:
        sql += " SETTINGS optimize_use_projections = 0"
    return [
        tuple(row) for row in store.query(sql, {"keys": keys, "types": ["user_input", "assistant_response"]})
    ]


def test_session_lengths_come_from_the_projection_and_survive_a_recovery_delete(
    store: Store, ingest_into_store
) -> None:  # type: ignore[no-untyped-def]
    ingest_into_store([CODEX])
    keys = [int(r[0]) for r in store.query(f"SELECT DISTINCT session_key FROM {store.table('events')}")]
    params = {"keys": keys, "types": ["user_input"]}
    plan = "\n".join(str(r[0]) for r in store.query("EXPLAIN " + session_lengths_sql(store), params))
    assert "session_lengths" in plan, plan  # read from the projection (migration 009), not from every row
    lengths = _session_lengths(store, keys)
    assert lengths and all(int(total) > 0 for _, total in lengths)
    assert lengths == _session_lengths(store, keys, projections=False)

    # Ingest recovery deletes an interrupted publish's rows with a lightweight DELETE: the projection follows.
    stream, offset = store.query(
        f"SELECT stream_id, max(source_offset) FROM {store.table('events')} "
        "WHERE type = 'assistant_response' GROUP BY stream_id LIMIT 1"
    )[0]
    delete_stream_tail(store, int(stream), int(offset), "codex", "/gone")
    after = _session_lengths(store, keys)
    assert after != lengths
    assert after == _session_lengths(store, keys, projections=False)


def _vector(i: int) -> list[float]:
    """Along axis i, a little off it toward the next one (distinct for i < 383: easy nearest answers)."""
    vector = [0.0] * 384
    vector[i], vector[i + 1] = 1.0, 0.25
    return vector


def test_vector_granules_keep_every_vector_and_the_nearest_search(store: Store, store_dsn: str) -> None:
    vectors = store.table("vectors")
    # Put the table back where 009 left it: default granularity, the HNSW index built, 010 not recorded.
    old = _ddl(store, "vectors").split("SETTINGS", 1)[0]
    store.command(f"DROP TABLE {vectors}")
    store.command(old)
    assert "index_granularity = 8192" in _ddl(store, "vectors")
    rows = [
        [7, i, i // 4, "user_input", "codex", "codex", None, "m", _vector(i), 3, i * 100] for i in range(380)
    ]
    columns = ["session_key", "seq", "turn_seq", "type", "harness", "source", "timestamp", "model", "vector",
               "stream_id", "source_offset"]  # fmt: skip
    store.insert("vectors", rows, columns)
    before = _rows(store, "vectors")
    assert len(before) == 380
    store.command(f"DELETE FROM {store.table('schema_migrations')} WHERE version = 10")

    reopened = Store.open(store_dsn, database=store.database)
    try:
        ddl = _ddl(reopened, "vectors")
        assert "index_granularity = 256" in ddl
        assert "INDEX by_similarity vector TYPE vector_similarity('hnsw', 'cosineDistance', 384)" in ddl
        assert _rows(reopened, "vectors") == before
        # The copy skipped the index; the migration left its rebuild to a background mutation.
        mutations = reopened.query(
            "SELECT command FROM system.mutations WHERE database = {db:String} AND table = 'vectors'",
            {"db": store.database},
        )
        assert any("MATERIALIZE INDEX by_similarity" in str(row[0]) for row in mutations)
        found = nearest(reopened, _vector(123), types=["user_input", "assistant_response"], limit=3)
        assert [(key, seq) for key, seq, _ in found][:1] == [(7, 123)]
        assert found[0][2] > 0.99
        tables = {str(row[0]) for row in reopened.query(f"SHOW TABLES FROM {store.database}")}
        assert "vectors_rebuild" not in tables
        assert reopened.migrate() == []
    finally:
        reopened.close()


def test_event_usage_columns_are_added_to_a_store_that_has_rows(
    store: Store, store_dsn: str, ingest_into_store
) -> None:  # type: ignore[no-untyped-def]
    ingest_into_store([CODEX])
    events = store.table("events")
    count = store.query(f"SELECT count() FROM {events}")[0][0]
    # Put the table back where 010 left it: no usage columns, 011 not recorded (nor 018, whose projection on
    # them goes first).
    store.command(f"ALTER TABLE {events} DROP PROJECTION usage_by_hour")
    for column in USAGE_COLUMNS:
        store.command(f"ALTER TABLE {events} DROP COLUMN {column}")
    store.command(f"DELETE FROM {store.table('schema_migrations')} WHERE version IN (11, 18)")

    reopened = Store.open(store_dsn, database=store.database)
    try:
        columns = {str(row[0]) for row in reopened.query(f"DESCRIBE TABLE {events}")}
        assert set(USAGE_COLUMNS) <= columns
        assert reopened.query(f"SELECT count(), countIf(usage_input IS NULL) FROM {events}")[0] == (
            count,
            count,
        )
        assert reopened.migrate() == []
    finally:
        reopened.close()
