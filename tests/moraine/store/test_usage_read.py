"""The usage read is answered from the events table's ``usage_by_hour`` projection (migration 018), and gives the
same sums as adding up the events themselves."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from moraine.store.client import Store
from moraine.store.reads.usage import UsageFilter, usage_rows, usage_sql

CODEX = Path(__file__).resolve().parents[2] / "fixtures" / "usage" / "codex"
WINDOW = UsageFilter(datetime(2026, 2, 23, tzinfo=UTC), datetime(2026, 2, 24, tzinfo=UTC))


def test_the_read_uses_the_projection_and_equals_the_events_sums(
    store: Store, ingest_into_store: Any
) -> None:
    assert ingest_into_store([CODEX], source="codex").events > 20
    sql, parameters = usage_sql(store, WINDOW, frozenset({"session"}))
    plan = "\n".join(row[0] for row in store.query("EXPLAIN " + sql, parameters))
    assert "ReadFromMergeTree (usage_by_hour)" in plan, plan
    rows = usage_rows(store, WINDOW, frozenset({"session"}))
    direct = store.query(
        f"SELECT session_key, count(), sum(usage_input), sum(usage_output), sum(usage_cache_read) "
        f"FROM {store.table('events')} WHERE usage_input IS NOT NULL OR usage_output IS NOT NULL "
        "GROUP BY session_key ORDER BY session_key"
    )
    assert sorted((r.session_key, r.calls, r.input, r.output, r.cache_read) for r in rows) == [
        tuple(int(v) for v in row) for row in direct
    ]
    assert len(rows) == 2 and sum(r.calls for r in rows) == 7  # one call and six (test_usage_fixtures.py)
