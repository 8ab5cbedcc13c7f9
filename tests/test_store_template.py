"""The ``store`` fixture copies a migrated template instead of migrating each test's database: the copy must be the
database the migrations make, table for table, with the same record of applied migrations."""

from __future__ import annotations

from moraine.store.client import Store


def _schema(store: Store) -> dict[str, str]:
    rows = store.query(
        "SELECT name, create_table_query FROM system.tables WHERE database = {db:String}",
        {"db": store.database},
    )
    return {str(name): str(ddl).replace(f"{store.database}.", "DB.") for name, ddl in rows}


def test_a_copied_store_is_the_database_the_migrations_make(store: Store, migrated_anew: Store) -> None:
    assert len(_schema(migrated_anew)) >= 15
    assert _schema(store) == _schema(migrated_anew)
    applied = "SELECT version, name FROM {} ORDER BY version"
    assert store.query(applied.format(store.table("schema_migrations"))) == migrated_anew.query(
        applied.format(migrated_anew.table("schema_migrations"))
    )
    assert store.migrate() == []  # nothing left to apply
