"""Token usage read from a trace reaches the events table: Claude Code's message.usage, Codex's token_count."""

from __future__ import annotations

from pathlib import Path

from moraine.store.client import Store

HERE = Path(__file__).parent
CLAUDE = HERE / "claude_code" / "home" / ".claude" / "projects"
CODEX = HERE / "codex" / "home" / ".codex" / "sessions"
_SUMS = (
    "SELECT countIf(usage_input IS NOT NULL), sum(usage_input), sum(usage_output), sum(usage_cache_read), "
    "sum(usage_cache_write), sum(usage_reasoning) FROM {events} WHERE stream_id IN "
    "(SELECT stream_id FROM {sessions} WHERE source = {{source:String}})"
)


def _sums(store: Store, source: str) -> tuple[object, ...]:
    sql = _SUMS.format(events=store.table("events"), sessions=store.table("sessions"))
    return tuple(store.query(sql, {"source": source})[0])


def test_claude_code_usage_is_stored_once_per_api_message(store: Store, ingest_into_store) -> None:  # type: ignore[no-untyped-def]
    ingest_into_store([CLAUDE], source="claude")
    # Two API messages carry usage; the second is written as two records repeating it, counted once.
    assert _sums(store, "claude") == (2, 2060, 244, 24576, 512, None)


def test_codex_token_count_usage_is_stored_on_its_event(store: Store, ingest_into_store) -> None:  # type: ignore[no-untyped-def]
    ingest_into_store([CODEX], source="codex")
    # One token_count event in the fixtures; Codex records no cache writes.
    assert _sums(store, "codex") == (1, 1200, 90, 800, None, 40)
