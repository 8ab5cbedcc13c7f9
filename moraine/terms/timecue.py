"""A date named in a search query ("what did we change on March 3, 2024?", "the deploy in May 2023").

Only explicit calendar dates are read: a day with its month (and year), a month with a year, or "in"/"during" a
capitalized month name; relative phrases ("last week") are not, because nothing says what they were relative to. A
day also covers the week after it, since work is often talked about a few days after it was done; a month without a
year is that month in any year. Dates are calendar days in UTC, like the stored timestamps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

__all__ = ["Period", "time_cue"]

_MONTHS = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
_MONTH = "|".join(_MONTHS)
_YEAR = r"(?P<{}>(?:19|20)\d\d)"
_DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th)?"
# Ordered from the most precise: the first that matches a real date wins.
_PATTERNS = (
    # 13 October 2023, 1 February, 2023, 13 October
    re.compile(
        rf"\b{_DAY.format('day')}\s+(?P<month>{_MONTH})\b(?:,?\s+{_YEAR.format('year')}\b)?", re.IGNORECASE
    ),
    # October 13, 2023, October 13
    re.compile(
        rf"\b(?P<month>{_MONTH})\s+{_DAY.format('day')}\b(?:,?\s+{_YEAR.format('year')}\b)?", re.IGNORECASE
    ),
    # October 2023
    re.compile(rf"\b(?P<month>{_MONTH}),?\s+{_YEAR.format('year')}\b", re.IGNORECASE),
    # in May (capitalized: "in may" is more often the verb)
    re.compile(rf"\b(?:[Ii]n|[Dd]uring)\s+(?P<month>{'|'.join(m.capitalize() for m in _MONTHS)})\b"),
    # in 2023
    re.compile(rf"\b(?:[Ii]n|[Dd]uring)\s+{_YEAR.format('year')}\b"),
)
_DAY_SPAN = timedelta(days=7)


@dataclass(frozen=True, slots=True)
class Period:
    """A named day (and the week after it), month or year; ``None`` parts match anything."""

    year: int | None = None
    month: int | None = None
    day: int | None = None

    def contains(self, moment: datetime | None) -> bool:
        """Whether ``moment`` falls in the period."""
        if moment is None:
            return False
        if self.day is not None and self.month is not None:
            years = [self.year] if self.year is not None else [moment.year, moment.year - 1]
            for year in years:
                try:
                    start = date(year, self.month, self.day)
                except ValueError:
                    continue
                if start <= moment.date() < start + _DAY_SPAN:
                    return True
            return False
        return (self.year is None or moment.year == self.year) and (
            self.month is None or moment.month == self.month
        )


def time_cue(text: str) -> Period | None:
    """Return the first calendar date the query names, or ``None``."""
    for pattern in _PATTERNS:
        for match in pattern.finditer(text):
            parts = match.groupdict()
            month = _MONTHS.index(parts["month"].lower()) + 1 if parts.get("month") else None
            day = int(parts["day"]) if parts.get("day") else None
            year = int(parts["year"]) if parts.get("year") else None
            if day is not None and not _valid_day(month, day):
                continue
            return Period(year, month, day)
    return None


def _valid_day(month: int | None, day: int) -> bool:
    try:
        date(2000, month or 1, day)  # a leap year: 29 February is a date
    except ValueError:
        return False
    return True
