"""The times the CLI's ``--since``/``--until`` take: durations back from now, calendar dates, months, years, RFC 3339.

``2y``, ``6mo``, ``2w``, ``7d``, ``24h``, ``90m`` count back from now (a year is 365 days, a month 30). ``2024``,
``2024-05`` and ``2024-05-17`` are calendar periods in UTC: as a start they mean the period's first instant, as an
end its last (the next period's first instant), so ``--since 2024-05 --until 2024-05`` is all of May 2024. An RFC
3339 time is taken as written; one without an offset is UTC.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import click

__all__ = ["ALL_TIME", "iso", "window_end", "window_options", "window_start"]

# The start of "any time", the web page's too (moraine/web/static/sessions.js EPOCH).
ALL_TIME = "2000-01-01T00:00:00Z"

_DURATION = re.compile(r"^(\d+)(mo|[mhdwy])$")
_DAYS = {"d": 1, "w": 7, "mo": 30, "y": 365}
_PERIOD = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")
_FORMS = "a duration (90m, 24h, 7d, 2w, 6mo, 2y), a date (2024-01-01), a month (2024-05), a year (2024) or an RFC 3339 time"


_F = TypeVar("_F", bound=Callable[..., Any])


def window_options(start_default: str) -> Callable[[_F], _F]:
    """Return the decorator adding ``--since``/``--start`` and ``--until``/``--end`` (values ``since``, ``until``)."""

    def add(command: _F) -> _F:
        command = click.option(
            "--until",
            "--end",
            "until",
            default=None,
            help="End of the window (default: now); a date, month or year ends with it.",
        )(command)
        return click.option(
            "--since",
            "--start",
            "since",
            default=None,
            help=f"Start of the window (default: {start_default}): a duration back from now (90m, 24h, 7d, 2w, "
            "6mo, 2y), a date (2024-01-01), a month (2024-05), a year (2024) or an RFC 3339 time.",
        )(command)

    return add


def iso(moment: datetime) -> str:
    """Return ``moment`` as RFC 3339 UTC with milliseconds."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def window_start(text: str, now: datetime) -> str:
    """Return the first instant ``text`` names (see the module docstring; an RFC 3339 time comes back as written).

    Raises:
        click.BadParameter: none of the forms.
    """
    return _read(text, now, end=False)


def window_end(text: str, now: datetime) -> str:
    """Return the end of the period ``text`` names (a duration or a time: that instant)."""
    return _read(text, now, end=True)


def _read(text: str, now: datetime, *, end: bool) -> str:
    value = text.strip()
    duration = _DURATION.match(value)
    if duration:
        amount, unit = int(duration.group(1)), duration.group(2)
        back = timedelta(minutes=amount) if unit == "m" else timedelta(hours=amount) if unit == "h" else None
        return iso(now - (back if back is not None else timedelta(days=amount * _DAYS[unit])))
    period = _PERIOD.match(value)
    if period:
        return iso(_period(value, period, end=end))
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise click.BadParameter(f"{text!r} is not {_FORMS}") from None
    return value if parsed.tzinfo else iso(parsed.replace(tzinfo=UTC))


def _period(text: str, found: re.Match[str], *, end: bool) -> datetime:
    year, month, day = int(found.group(1)), found.group(2), found.group(3)
    try:
        first = datetime(year, int(month or 1), int(day or 1), tzinfo=UTC)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a calendar date") from None
    if not end:
        return first
    if day is not None:
        return first + timedelta(days=1)
    if month is not None:
        return datetime(year + first.month // 12, first.month % 12 + 1, 1, tzinfo=UTC)
    return datetime(year + 1, 1, 1, tzinfo=UTC)
