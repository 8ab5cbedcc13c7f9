"""The ClickHouse store: connection, migrations, writes (ingest) and reads (handlers)."""

__all__: list[str] = []
