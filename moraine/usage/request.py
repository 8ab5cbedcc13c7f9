"""The one parse of a usage request: the same fields from the CLI's options and the daemon route's query string.

Fields: ``start``/``end`` (RFC 3339; default any time up to now), ``by`` (repeatable, or comma-separated: day, week,
month, model, harness, project, session; default day), ``harness``, ``project`` (a project ID as sessions store
it), ``session`` (a session ID: one session's usage).

Usage is counted in whole UTC hours (the store keeps it per hour: ``moraine.store.reads.usage``): a start inside an
hour takes that hour from its beginning, an end inside one takes it to its end. The summary prints the window it used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from moraine import ids

__all__ = ["DIMENSIONS", "UsageRequest", "UsageRequestError", "parse_usage_request"]

# What rows can be grouped by, in the order a row's key lists them.
DIMENSIONS = ("day", "week", "month", "model", "harness", "project", "session")
ALL_TIME = datetime(2000, 1, 1, tzinfo=UTC)
_MAX_TEXT = 4096


class UsageRequestError(ValueError):
    """A usage request that cannot be answered; the message says which field and why."""


@dataclass(frozen=True, slots=True)
class UsageRequest:
    start: datetime
    end: datetime
    by: tuple[str, ...]
    harness: str | None = None
    project: str | None = None
    session_key: int | None = None

    def query(self) -> dict[str, str | list[str]]:
        """Return the request as the daemon route's query parameters (``parse_usage_request`` reads them back)."""
        out: dict[str, str | list[str]] = {
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "by": list(self.by),
        }
        if self.harness is not None:
            out["harness"] = self.harness
        if self.project is not None:
            out["project"] = self.project
        if self.session_key is not None:
            out["session"] = ids.session_id(self.session_key)
        return out


def parse_usage_request(
    fields: Mapping[str, Sequence[str]], now: datetime, harnesses: Sequence[str]
) -> UsageRequest:
    """Return the request ``fields`` (name -> every value given) make; ``harnesses`` are the registered ones.

    Raises:
        UsageRequestError: an unknown field, a value given twice, a bad time, grouping, harness or session ID.
    """
    unknown = set(fields) - {"start", "end", "by", "harness", "project", "session"}
    if unknown:
        raise UsageRequestError(f"unknown field(s): {', '.join(sorted(unknown))}")
    start = _hour(_time(fields, "start") or ALL_TIME, up=False)
    end = _hour(_time(fields, "end") or now, up=True)
    if end <= start:
        raise UsageRequestError(f"end ({end.isoformat()}) must be after start ({start.isoformat()})")
    by = tuple(part.strip() for value in fields.get("by", ()) for part in value.split(",") if part.strip())
    wrong = [name for name in by if name not in DIMENSIONS]
    if wrong:
        raise UsageRequestError(
            f"cannot group by {', '.join(wrong)}; the groupings are: {', '.join(DIMENSIONS)}"
        )
    by = tuple(name for name in DIMENSIONS if name in by) or ("day",)
    harness = _one(fields, "harness")
    if harness is not None and harness not in harnesses:
        raise UsageRequestError(
            f"no harness is called {harness!r}; the harnesses are: {', '.join(harnesses)}"
        )
    session = _one(fields, "session")
    session_key = None
    if session is not None:
        try:
            parsed = ids.parse_id(session)
        except ids.InvalidIdError as exc:
            raise UsageRequestError(f"session: {exc}") from None
        if not isinstance(parsed, ids.SessionId):
            raise UsageRequestError(f"session must be a session ID, not {session!r}")
        session_key = parsed.key
    return UsageRequest(start, end, by, harness, _one(fields, "project"), session_key)


def _hour(moment: datetime, *, up: bool) -> datetime:
    """Return ``moment`` rounded to its whole UTC hour: down for a start, up for an end."""
    floor = moment.replace(minute=0, second=0, microsecond=0)
    return floor + timedelta(hours=1) if up and floor != moment else floor


def _one(fields: Mapping[str, Sequence[str]], name: str) -> str | None:
    values = fields.get(name, ())
    if len(values) > 1:
        raise UsageRequestError(f"{name} is given {len(values)} times; give it once")
    if not values or values[0] == "":
        return None
    if len(values[0]) > _MAX_TEXT:
        raise UsageRequestError(f"{name} is longer than {_MAX_TEXT} characters")
    return values[0]


def _time(fields: Mapping[str, Sequence[str]], name: str) -> datetime | None:
    text = _one(fields, name)
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise UsageRequestError(f"{name} must be an RFC 3339 time, not {text!r}") from None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
