"""Parse the RFC 3339 datetimes callers send (the schema has already checked their shape)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

from moraine.errors import RequestError

__all__ = ["parse_datetime"]

_RFC3339 = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$"
)


def parse_datetime(text: str, field: str) -> datetime:
    """Return ``text`` as an aware datetime (fractions beyond microseconds are truncated).

    Raises:
        RequestError: the text is not a real calendar datetime with a valid offset.
    """
    match = _RFC3339.match(text)
    if match is None:
        raise RequestError(
            f"{field} must be an RFC 3339 datetime with an explicit timezone offset or Z", field=field
        )
    year, month, day, hour, minute, second, fraction, zulu, sign, off_h, off_m = match.groups()
    try:
        offset = timedelta(0) if zulu else timedelta(hours=int(off_h), minutes=int(off_m))
        tz = UTC if zulu else timezone(offset if sign == "+" else -offset)
        micros = int((fraction or "0")[:6].ljust(6, "0"))
        return datetime(
            int(year), int(month), int(day), int(hour), int(minute), int(second), micros, tzinfo=tz
        )
    except ValueError as exc:
        raise RequestError(f"{field} is not a valid datetime: {exc}", field=field) from exc
