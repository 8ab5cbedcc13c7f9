"""Timestamps render as RFC 3339 UTC with exactly milliseconds and Z; missing stays null."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from moraine.store.reads.timestamps import format_timestamp, parse_timestamp


def test_naive_values_are_utc_with_three_fraction_digits() -> None:
    assert format_timestamp(datetime(2026, 4, 29, 18, 42, 31, 125000)) == "2026-04-29T18:42:31.125Z"
    assert format_timestamp(datetime(2026, 4, 29, 18, 42, 31)) == "2026-04-29T18:42:31.000Z"


def test_aware_values_are_converted_to_utc() -> None:
    value = datetime(2026, 4, 29, 14, 42, 31, 999999, tzinfo=timezone(timedelta(hours=-4)))
    assert format_timestamp(value) == "2026-04-29T18:42:31.999Z"


def test_missing_timestamps_stay_null() -> None:
    assert format_timestamp(None) is None


def test_parse_requires_a_timezone() -> None:
    assert parse_timestamp("2026-04-30T09:00:00-04:00") == datetime(2026, 4, 30, 13, 0, tzinfo=UTC)
    with pytest.raises(ValueError):
        parse_timestamp("2026-04-30T09:00:00")
