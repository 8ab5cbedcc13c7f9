"""``moraine usage``'s figures over real traces: tokens by type per session and per day equal a count made by hand
from the trace lines, and costs equal tokens times the published price.

Hand counts (Moraine's convention, ``TokenUsage``: ``input`` leaves cached tokens out, ``output`` holds reasoning):

- Claude Code (``67a8478e``, 2025-09-19, claude-opus-4-1-20250805): three API messages; ``msg_013AzJ`` is streamed
  as two lines (a text block, then a tool_use block) that both repeat its usage, counted once.
  input 4 + 4 + 6 = 14; cache write 0 + 260 + 223 = 483; cache read 25382 + 25382 + 25642 = 76406; output 3.
- Codex ``019c8a70`` (2026-02-23, gpt-5.3-codex): one token_count: input_tokens 34469 of which cached 3456,
  output 431 (reasoning 264): input 31013, cache read 3456, output 431.
- Codex ``019c8bfe`` (2026-02-23 UTC, gpt-5.3-codex): eleven token_count lines, one without counts and five
  repeating the count before (total_token_usage unchanged); the six calls' last_token_usage add up to input_tokens
  298373 of which cached 238848, output 1123 (reasoning 483): input 59525, cache read 238848, output 1123.
- Gemini CLI (2024-01-01, no model recorded): two replies, input 1500 (cached 100) output 200 thoughts 50, and
  input 2000 (cached 50) output 300 thoughts 100: input 1400 + 1950 = 3350, cache read 150, output 250 + 400 = 650.
- pi (2025-01-01, claude-opus-4-5): two assistant messages, input 100 + 200 = 300, output 50 + 10 = 60.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from moraine import ids
from moraine.config import HARNESSES
from moraine.store.client import Store
from moraine.usage.request import parse_usage_request
from moraine.usage.summary import usage_summary

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
USAGE = FIXTURES / "usage"
CLAUDE = next(
    (FIXTURES / "relevance_coding/traces/claude").glob("*/67a8478e-78dc-44ab-82ea-f65c8ead85f6.jsonl")
)
NOW = datetime(2026, 12, 1, tzinfo=UTC)


@pytest.fixture
def usage_store(store: Store, ingest_into_store: Any) -> Store:
    ingest_into_store([CLAUDE], source="claude", harness="claude-code")
    ingest_into_store([USAGE / "codex"], source="codex", harness="codex")
    ingest_into_store([USAGE / "gemini"], source="gemini-cli", harness="gemini-cli", format="gemini_json")
    ingest_into_store([USAGE / "pi"], source="pi", harness="pi-coding-agent")
    return store


def _summary(store: Store, **fields: Any) -> dict[str, Any]:
    wanted = parse_usage_request(
        {k: v if isinstance(v, list) else [v] for k, v in fields.items()}, NOW, tuple(HARNESSES)
    )
    return usage_summary(store, wanted)


def _tokens(row: dict[str, Any]) -> tuple[int, int, int, int]:
    t = row["tokens"]
    return t["input"], t["output"], t["cache_write"], t["cache_read"]


def _rows(summary: dict[str, Any]) -> dict[tuple[str, ...], dict[str, Any]]:
    return {tuple(row["key"][name] for name in summary["by"]): row for row in summary["rows"]}


def test_per_session_tokens_equal_the_hand_counts(usage_store: Store) -> None:
    rows = _rows(_summary(usage_store, by=["session"]))
    claude = ids.session_id(ids.session_key("claude", "67a8478e-78dc-44ab-82ea-f65c8ead85f6"))
    short = ids.session_id(ids.session_key("codex", "019c8a70-dda7-7f33-98ea-f30553347322"))
    long = ids.session_id(ids.session_key("codex", "019c8bfe-ec25-79e0-97d7-bda6a9c575ff"))
    pi = ids.session_id(ids.session_key("pi", "pi-test-session-uuid"))
    assert _tokens(rows[(claude,)]) == (14, 3, 483, 76406)
    assert rows[(claude,)]["calls"] == 3  # the streamed message once
    assert _tokens(rows[(short,)]) == (31013, 431, 0, 3456)
    assert _tokens(rows[(long,)]) == (59525, 1123, 0, 238848)
    assert rows[(long,)]["calls"] == 6  # five repeated token_counts not counted
    assert rows[(long,)]["tokens"]["reasoning"] == 483
    assert _tokens(rows[(pi,)]) == (300, 60, 0, 0)
    gemini = [row for key, row in rows.items() if key not in {(claude,), (short,), (long,), (pi,)}]
    assert [_tokens(row) for row in gemini] == [(3350, 650, 0, 150)]
    assert gemini[0]["tokens"]["reasoning"] == 150


def test_per_day_and_harness_tokens_equal_the_hand_counts(usage_store: Store) -> None:
    summary = _summary(usage_store, by=["day", "harness"])
    rows = _rows(summary)
    assert set(rows) == {
        ("2024-01-01", "gemini-cli"),
        ("2025-01-01", "pi-coding-agent"),
        ("2025-09-19", "claude-code"),
        ("2026-02-23", "codex"),
    }
    assert _tokens(rows[("2025-09-19", "claude-code")]) == (14, 3, 483, 76406)
    assert _tokens(rows[("2026-02-23", "codex")]) == (31013 + 59525, 431 + 1123, 0, 3456 + 238848)
    assert _tokens(rows[("2024-01-01", "gemini-cli")]) == (3350, 650, 0, 150)
    assert _tokens(summary["total"]) == (
        14 + 31013 + 59525 + 3350 + 300,
        3 + 431 + 1123 + 650 + 60,
        483,
        76406 + 3456 + 238848 + 150,
    )


def test_costs_equal_tokens_times_the_published_prices(usage_store: Store) -> None:
    rows = _rows(_summary(usage_store, by=["model"]))
    # Anthropic's list prices for Claude Opus 4.1 per million tokens: input $15, output $75, 5-minute cache
    # write $18.75, cache read $1.50.
    opus = (
        Decimal(14) * 15 + Decimal(3) * 75 + Decimal(483) * Decimal("18.75") + Decimal(76406) * Decimal("1.5")
    )
    assert rows[("claude-opus-4-1-20250805",)]["cost_usd"] == pytest.approx(float(opus / 1_000_000), abs=1e-9)
    # OpenAI's list prices for gpt-5.3-codex per million tokens: input $1.75, cached input $0.175, output $14.
    codex = (
        Decimal(31013 + 59525) * Decimal("1.75")
        + Decimal(3456 + 238848) * Decimal("0.175")
        + Decimal(431 + 1123) * 14
    )
    assert rows[("gpt-5.3-codex",)]["cost_usd"] == pytest.approx(float(codex / 1_000_000), abs=1e-9)


def test_a_model_the_price_table_does_not_know_is_unpriced_never_zero(usage_store: Store) -> None:
    summary = _summary(usage_store, by=["harness"])
    gemini = _rows(summary)[("gemini-cli",)]
    assert gemini["cost_usd"] is None
    assert gemini["unpriced_tokens"] == 3350 + 650 + 150
    assert gemini["unpriced_models"] == ["(no model recorded)"]
    total = summary["total"]
    assert total["cost_usd"] is not None and total["cost_usd"] > 0
    assert total["unpriced_tokens"] == 3350 + 650 + 150
    assert summary["prices"]["name"] == "genai-prices" and summary["prices"]["version"]


def test_filters_and_window_narrow_the_rows(usage_store: Store) -> None:
    codex = _summary(usage_store, harness="codex", by=["day"])
    assert [row["key"]["day"] for row in codex["rows"]] == ["2026-02-23"]
    window = _summary(usage_store, start="2025-09-19T00:00:00Z", end="2025-09-20T00:00:00Z")
    assert _tokens(window["total"]) == (14, 3, 483, 76406)
    short = ids.session_id(ids.session_key("codex", "019c8a70-dda7-7f33-98ea-f30553347322"))
    one = _summary(usage_store, session=short, by=["model"])
    assert [(row["key"]["model"], _tokens(row)) for row in one["rows"]] == [
        ("gpt-5.3-codex", (31013, 431, 0, 3456))
    ]


def test_a_window_is_counted_in_whole_utc_hours() -> None:
    fields = {"start": ["2026-02-23T19:34:50Z"], "end": ["2026-02-23T19:35:00.001Z"]}
    wanted = parse_usage_request(fields, NOW, tuple(HARNESSES))
    assert (wanted.start, wanted.end) == (
        datetime(2026, 2, 23, 19, tzinfo=UTC),
        datetime(2026, 2, 23, 20, tzinfo=UTC),
    )
    whole = parse_usage_request(
        {"start": ["2026-02-23T19:00:00Z"], "end": ["2026-02-23T20:00:00Z"]}, NOW, ("codex",)
    )
    assert (whole.start, whole.end) == (wanted.start, wanted.end)
