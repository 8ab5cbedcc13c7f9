"""Statement limits: every statement of a store runs under them, and a breach is resource_exhausted to the caller."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from generated.tools import TOOLS
from generated.validators import VALIDATORS
from handlers import Deps, Settings, load_handlers
from moraine.config import load_config
from moraine.errors import ConfigError, ResourceExhaustedError
from moraine.server.service import ToolReply, ToolService
from moraine.store.client import Store
from moraine.store.limits import DEFAULT_MAX_MEMORY_USAGE, DEFAULT_MAX_TEMPORARY_DISK, StatementLimits

CODEX = Path(__file__).resolve().parents[2] / "harnesses" / "codex" / "home" / ".codex" / "sessions"
_TINY = StatementLimits(max_memory_usage=64 * 1024)


@pytest.fixture
def tiny(store: Store) -> Iterator[Store]:
    """The test's database through connections whose statements may use 64 KiB each."""
    limited = Store(store.dsn, store.database, limits=_TINY)
    try:
        yield limited
    finally:
        limited.close()


def _setting(store: Store, name: str) -> int:
    return int(store.query("SELECT getSetting({name:String})", {"name": name})[0][0])


def _search(store: Store, query: str) -> ToolReply:
    service = ToolService(Deps(store, Settings(cursor_secret=b"l" * 32)), load_handlers())
    reply: ToolReply = anyio.run(service.call, "search_sessions", {"query": query})
    VALIDATORS[TOOLS["search_sessions"].output_validator](reply.envelope)
    return reply


def test_every_statement_runs_under_the_default_limits(store: Store) -> None:
    assert _setting(store, "max_memory_usage") == DEFAULT_MAX_MEMORY_USAGE
    assert _setting(store, "max_temporary_data_on_disk_size_for_query") == DEFAULT_MAX_TEMPORARY_DISK


def test_a_limit_of_zero_is_left_to_the_server(store: Store) -> None:
    assert StatementLimits(0, 0).settings() == {}
    unset = Store(store.dsn, store.database, limits=StatementLimits(0, 0))
    try:
        assert _setting(unset, "max_memory_usage") == 0  # chDB's own default: no limit
    finally:
        unset.close()


def test_a_write_over_the_memory_limit_is_resource_exhausted(store: Store, tiny: Store) -> None:
    tiny.command(f"CREATE TABLE {store.table('wide')} (n UInt64) ENGINE = MergeTree ORDER BY n")
    with pytest.raises(ResourceExhaustedError) as caught:
        tiny.command(f"INSERT INTO {store.table('wide')} SELECT number FROM numbers(1000000) ORDER BY rand()")
    assert caught.value.code == "resource_exhausted"
    assert store.query(f"SELECT count() FROM {store.table('wide')}") == [(0,)]


def test_a_tool_call_over_the_memory_limit_returns_resource_exhausted(
    store: Store, tiny: Store, ingest_into_store: Any
) -> None:
    ingest_into_store([CODEX])
    assert _search(store, "coupons").envelope["data"]["result_count"] > 0  # passes under the defaults
    reply = _search(tiny, "coupons")
    assert reply.is_error
    assert reply.envelope["error"]["code"] == "resource_exhausted"
    assert "memory limit" in reply.envelope["error"]["message"].lower()


def test_the_limits_come_from_the_store_table_of_the_config(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[store]\nmax_memory_usage = 1073741824\nmax_temporary_disk = 0\n")
    assert load_config(path).store_limits == StatementLimits(1024**3, 0)
    path.write_text("[store]\nmax_memory_usage = -1\n")
    with pytest.raises(ConfigError, match="store.max_memory_usage must be an integer >= 0"):
        load_config(path)
