"""Shared fixtures: one chDB directory per pytest process, one fresh ClickHouse database per test.

chDB allows one engine (one directory) per process, so every test shares the session's directory and gets its own
database instead. When ``CLICKHOUSE_URL`` is set, the same fixtures run against that server.

- ``store``: a migrated ``Store`` on a fresh database, dropped after the test.
- ``ingest_into_store``: a callable ``(paths, source="codex", harness=None, **source_fields) -> IngestSummary``
  that ingests files/directories into ``store`` through the real pipeline (tests use it to build corpora).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from moraine.store.client import Store


@pytest.fixture(scope="session")
def store_dsn(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Return the DSN every test store lives under: ``CLICKHOUSE_URL`` or one chDB directory per session."""
    url = os.environ.get("CLICKHOUSE_URL")
    if url:
        return url
    return f"chdb://{tmp_path_factory.mktemp('chdb') / 'store'}"


@pytest.fixture
def store(store_dsn: str) -> Iterator[Store]:
    """Yield a migrated store on a fresh, uniquely named database; drop the database afterwards."""
    database = f"t_{uuid.uuid4().hex[:16]}"
    opened = Store.open(store_dsn, database=database)
    try:
        yield opened
    finally:
        opened.command(f"DROP DATABASE IF EXISTS {database}")
        opened.close()


IngestIntoStore = Callable[..., Any]


@pytest.fixture
def ingest_into_store(store: Store) -> IngestIntoStore:
    """Return a function that ingests ``paths`` (files or directories) into ``store`` as one source."""

    def ingest(
        paths: Sequence[Path | str],
        source: str = "codex",
        harness: str | None = None,
        **options: Any,
    ) -> Any:
        from moraine.ingest.pipeline import (
            ingest_paths,
        )  # imported late: tests of other layers need not load it

        return ingest_paths(
            store,
            [Path(p) for p in paths],
            source=source,
            harness=harness or _default_harness(source),
            **options,
        )

    return ingest


def _default_harness(source: str) -> str:
    from moraine.config import harness_for_source

    return harness_for_source(source)
