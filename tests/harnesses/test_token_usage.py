"""Token usage read from a trace reaches the events table: Claude Code's message.usage, Codex's token_count, and
for every harness folder, exactly where its ``expect.json`` says (``"usage": true``) the traces record it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fixtures.corpus.builder import scratch_store
from moraine.config import load_config
from moraine.harnesses import harnesses
from moraine.ingest.pipeline import ingest_once
from moraine.store.client import Store
from tests.harnesses.home import Expectation, build_home, expectations, write_config

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
    # One token_count event in the fixtures (input_tokens 1200, of which 800 cached: input is the 400 uncached);
    # Codex records no cache writes.
    assert _sums(store, "codex") == (1, 400, 90, 800, None, 40)


@pytest.fixture(scope="module")
def shared_home_store(store_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """Every harness folder's home in one HOME, each standard source ingested from it into one scratch store."""
    home = build_home(tmp_path_factory.mktemp("usage-home") / "home")
    with pytest.MonkeyPatch.context() as patch, scratch_store(store_dsn) as store:
        patch.setenv("HOME", str(home))  # the standard locations are under ~
        patch.setenv("MORAINE_HOME", str(home / ".moraine"))
        patch.delenv("MORAINE_CONFIG", raising=False)
        ingest_once(store, load_config(write_config(home / ".moraine")))
        yield store


@pytest.mark.parametrize("expect", expectations(), ids=lambda e: e.harness)
def test_events_carry_usage_exactly_where_expect_json_says_the_traces_record_it(
    shared_home_store: Store, expect: Expectation
) -> None:
    store = shared_home_store
    with_usage = store.query(
        f"SELECT countIf(e.usage_input IS NOT NULL OR e.usage_output IS NOT NULL), count() "
        f"FROM {store.table('events')} AS e INNER JOIN (SELECT session_key FROM {store.table('sessions')} FINAL "
        "WHERE harness = {harness:String}) AS s ON e.session_key = s.session_key",
        {"harness": expect.harness},
    )[0]
    assert with_usage[1] > 0, f"no events read for {expect.harness}"
    assert (with_usage[0] > 0) is expect.usage, with_usage


# Declared (Harness.usage), with no usage in its own fixtures: where its reading is shown instead.
USAGE_SHOWN_ELSEWHERE = {
    "pi-coding-agent": "tests/moraine/usage/test_usage_fixtures.py (pi's own usage sample)",
    "prime-agent": "the same session-tree reader as pi (harnesses/_shared/pi_tree.py), shown on pi's usage sample",
}


def test_every_harness_whose_traces_record_usage_says_where_it_is_read() -> None:
    """docs/harnesses.md prints each harness's ``usage`` fact; expect.json says (and the test above checks) which
    harnesses' fixtures carry usage."""
    declared = {name for name, harness in harnesses().items() if harness.usage}
    recorded = {expect.harness for expect in expectations() if expect.usage}
    assert len(recorded) > 20
    assert recorded - declared == set(), "these harnesses read token usage but do not say so (Harness.usage)"
    assert declared - recorded == set(USAGE_SHOWN_ELSEWHERE)
