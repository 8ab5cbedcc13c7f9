"""Touches follow the pipeline's idempotency: re-ingesting adds none, a rewritten trace replaces its touches."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fixtures.handler_data import file_attention_data
from fixtures.attention.traces import Call, write_claude, write_corpus

from moraine.store.client import Store
from tests.fixtures.requests import attention_request


def total(store: Store, path: str = "src/app.py") -> int:
    result = file_attention_data(
        store,
        attention_request(path=path, scope="all", granularity="events", mutations_only=False, limit=50),
        launch_dir=None,
    )
    return int(result.data["summary"]["total_touches"])


def test_reingest_adds_no_touches_and_a_rewrite_replaces_them(
    store: Store, tmp_path: Path, ingest_into_store: Callable[..., Any]
) -> None:
    layout = write_corpus(tmp_path, ingest_into_store)
    assert total(store) == 6
    ingest_into_store([tmp_path / "traces" / "codex"], source="codex")
    ingest_into_store([tmp_path / "traces" / "claude"], source="claude")
    assert total(store) == 6
    write_claude(
        tmp_path / "traces" / "claude" / "plain.jsonl",
        "claude-plain",
        layout.plain,
        [Call("Read", {"file_path": str(layout.plain / "src/other.py")}, "2026-06-13T10:00:00.000Z")],
        "2026-06-13T09:59:00.000Z",
    )
    ingest_into_store([tmp_path / "traces" / "claude"], source="claude")
    assert total(store) == 5
    assert total(store, "src/other.py") == 1
