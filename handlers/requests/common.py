"""Rules more than one tool's parse applies: a limit within the configured maximum, an RFC 3339 datetime."""

from __future__ import annotations

from datetime import datetime

from moraine.errors import RequestError
from moraine.server.datetimes import parse_datetime

__all__ = ["check_limit", "optional_datetime", "ordered"]


def check_limit(limit: int, max_results: int) -> int:
    """Return ``limit`` as an int (the schema has checked it is a positive integer, maybe written 4.0).

    Raises:
        RequestError: the limit is above the configured maximum (field ``limit``).
    """
    if limit > max_results:
        raise RequestError(f"limit must be an integer from 1 to {max_results}", field="limit")
    return int(limit)


def optional_datetime(text: str | None, field: str) -> datetime | None:
    """Return ``text`` as an aware datetime, or None when it was not given.

    Raises:
        RequestError: not a real calendar datetime with a valid offset (field ``field``).
    """
    return None if text is None else parse_datetime(text, field)


def ordered(start: datetime | None, end: datetime | None) -> None:
    """Check that a range's end comes after its start (either may be open).

    Raises:
        RequestError: end_datetime is not after start_datetime (field ``end_datetime``).
    """
    if start is not None and end is not None and end <= start:
        raise RequestError("end_datetime must be after start_datetime", field="end_datetime")
