"""Field readers shared by the adapters: Moraine tool names, timestamps, tool output text."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from moraine.harnesses._shared.fields import canonical_tool_name, output_text, parse_timestamp, trailing_uuid


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("mcp__moraine__search_sessions", ("search_sessions", True)),
        ("mcp_moraine_open", ("open", True)),
        ("moraine.list_sessions", ("list_sessions", True)),
        ("MCP__Moraine__File_Attention", ("file_attention", True)),
        ("file_attention", ("file_attention", True)),
        ("mcp__other__search_sessions", ("mcp__other__search_sessions", False)),
        ("mcp__moraine__search", ("search", True)),
        ("moraine_export", ("moraine_export", False)),
        ("read_file", ("read_file", False)),
    ],
)
def test_only_moraine_tools_lose_their_provider_prefix(raw: str, expected: tuple[str, bool]) -> None:
    assert canonical_tool_name(raw) == expected


def test_timestamps_parse_to_aware_utc_and_absent_or_bad_values_stay_null() -> None:
    moment = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    assert parse_timestamp("2026-03-02T09:00:00Z") == (moment, None)
    assert parse_timestamp("2026-03-02T10:00:00+01:00") == (moment, None)
    assert parse_timestamp("2026-03-02 09:00:00") == (moment, None)
    assert parse_timestamp(moment.timestamp()) == (moment, None)
    assert parse_timestamp(moment.timestamp() * 1000) == (moment, None)
    assert parse_timestamp(None) == (None, None)
    value, error = parse_timestamp("tomorrow")
    assert value is None and error is not None and error.reason == "timestamp_parse_error"
    assert parse_timestamp(True)[0] is None


def test_output_text_reads_text_blocks_and_falls_back_to_json() -> None:
    assert output_text([{"type": "text", "text": "a"}, {"kind": "text", "data": "b"}]) == "a\nb"
    assert output_text({"output": "only"}) == "only"
    assert output_text({"error": "x", "code": 1}) == '{"error":"x","code":1}'
    assert (
        trailing_uuid("rollout-2026_0f1e2d3c-4b5a-4697-8877-665544332211")
        == "0f1e2d3c-4b5a-4697-8877-665544332211"
    )
