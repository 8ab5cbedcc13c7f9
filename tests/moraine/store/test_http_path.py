"""The http:// store path: the same migrations, inserts, deletes and queries over ClickHouse's HTTP interface.

Runs against the test-only endpoint on chDB (``tests/clickhouse_http.py``) in every test run; the whole suite can
also run over HTTP with ``MORAINE_TEST_STORE=http``, or against a real server with ``CLICKHOUSE_URL``.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from moraine.errors import StoreError
from moraine.store.client import Store
from tests.moraine.ingest.test_pipeline import conversation, counts, events, ingest, write_lines


@pytest.fixture
def http_store(clickhouse_http_url: str) -> Iterator[Store]:
    database = f"h_{uuid.uuid4().hex[:16]}"
    opened = Store.open(clickhouse_http_url, database=database)
    try:
        yield opened
    finally:
        opened.command(f"DROP DATABASE IF EXISTS {database}")
        opened.close()


def test_migrations_apply_once_over_http(http_store: Store) -> None:
    assert http_store.migrate() == []
    versions = http_store.query(
        f"SELECT version FROM {http_store.table('schema_migrations')} ORDER BY version"
    )
    assert [v for (v,) in versions][:3] == [1, 2, 3]


def test_ingest_append_rewrite_and_rerun_over_http(http_store: Store, tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    records = conversation(turns=3, prefix="old")
    write_lines(trace, records[:4])
    assert ingest(http_store, trace, batch_size=2).events == 3
    write_lines(trace, records[4:], mode="a")
    assert ingest(http_store, trace, batch_size=2).events == 6
    before = counts(http_store)
    assert ingest(http_store, trace).events == 0
    assert counts(http_store) == before
    write_lines(trace, conversation(turns=1, prefix="new"))
    assert ingest(http_store, trace).rewritten == 1
    assert [row[5] for row in events(http_store)] == [
        "newquestion 1 about parseConfigFile",
        "",
        "newanswer 1",
    ]


def test_parameters_carry_user_text_and_errors_become_store_errors_over_http(http_store: Store) -> None:
    tricky = "it's a \"quote\" \\ and {braces} ' OR 1=1 --"
    http_store.insert("ingest_errors", [[0, "codex", tricky, 1, 0, "r", "d"]], ["at", "source", "path", "line_no", "offset", "reason", "detail"])  # fmt: skip
    rows = http_store.query(
        f"SELECT path FROM {http_store.table('ingest_errors')} WHERE path = {{p:String}}", {"p": tricky}
    )
    assert rows == [(tricky,)]
    with pytest.raises(StoreError) as raised:
        http_store.query(f"SELECT no_such_column FROM {http_store.table('events')}")
    assert "Code: 47" in str(raised.value)
    assert json.dumps(rows)
