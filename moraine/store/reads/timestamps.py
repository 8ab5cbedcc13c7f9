"""Render store timestamps as the contract's RFC 3339 strings (UTC, exactly milliseconds, ``Z``)."""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["format_timestamp", "parse_timestamp"]


def format_timestamp(value: datetime | None) -> str | None:
    """Return ``2026-04-29T18:42:31.125Z`` for a datetime (naive values are UTC); ``None`` stays ``None``."""
    if value is None:
        return None
    if value.tzinfo is not None:
        value = value.astimezone(UTC)
    return f"{value.strftime('%Y-%m-%dT%H:%M:%S')}.{value.microsecond // 1000:03d}Z"


def parse_timestamp(text: str) -> datetime:
    """Parse an RFC 3339 string with an explicit offset or ``Z`` into an aware UTC datetime.

    Raises:
        ValueError: the text is not an RFC 3339 datetime with a timezone.
    """
    value = datetime.fromisoformat(text.strip().replace("z", "Z"))
    if value.tzinfo is None:
        raise ValueError("datetime must carry a timezone offset or Z")
    return value.astimezone(UTC)
