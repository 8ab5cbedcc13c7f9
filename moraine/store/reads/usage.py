"""Token usage summed per (UTC day, model, and harness, project or session when asked) over a window of whole UTC
hours, for ``moraine usage`` and the web page's Usage view.

Usage is stored on the event of the model call that used it (``events.usage_*``, migration 011; adapters put one
call's usage on one event). The read is the shape of the events table's ``usage_by_hour`` projection (migration 018:
one row per session, hour and model), so ClickHouse answers it from there, never from every event; that is why the
window is whole hours (``UsageFilter``). An event without a model takes its session's; an event without a time is
counted on its session's last update. The window and every filter are query parameters; the grouping is chosen from
a fixed set.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from moraine.store.client import Store

__all__ = ["USAGE_GROUPS", "UsageFilter", "UsageRow", "usage_rows", "usage_sql"]

# What a summary may be grouped by beyond (day, model), which pricing always needs: the column each one reads.
USAGE_GROUPS = {"harness": "s.harness", "project": "ifNull(s.project_id, '')", "session": "u.session_key"}
_HOUR = "toStartOfHour(timestamp)"
_USED = (
    "countIf(usage_input IS NOT NULL OR usage_output IS NOT NULL OR usage_cache_read IS NOT NULL "
    "OR usage_cache_write IS NOT NULL OR usage_reasoning IS NOT NULL)"
)


@dataclass(frozen=True, slots=True)
class UsageFilter:
    """``start`` and ``end`` are whole UTC hours (the caller rounds them: ``moraine.usage.request``)."""

    start: datetime
    end: datetime
    harness: str | None = None
    project: str | None = None
    session_key: int | None = None


@dataclass(frozen=True, slots=True)
class UsageRow:
    """Tokens one (day, model, ...) group used; ``harness``/``project``/``session_key`` are None when not grouped."""

    day: date
    model: str
    harness: str | None
    project: str | None
    session_key: int | None
    calls: int
    input: int
    output: int
    cache_read: int
    cache_write: int
    reasoning: int


def usage_rows(store: Store, wanted: UsageFilter, groups: frozenset[str]) -> list[UsageRow]:
    """Return the tokens of every (UTC day, model, and each of ``groups``) in the window, one row each."""
    names = [name for name in USAGE_GROUPS if name in groups]
    sql, parameters = usage_sql(store, wanted, groups)
    out = []
    for row in store.query(sql, parameters):
        day, model, *grouped = row[: 2 + len(names)]
        calls, tokens_in, tokens_out, read, write, reasoning = (int(v) for v in row[2 + len(names) :])
        by = dict(zip(names, grouped, strict=True))
        out.append(
            UsageRow(
                day=day,
                model=str(model),
                harness=by.get("harness"),
                project=by.get("project"),
                session_key=int(by["session"]) if "session" in by else None,
                calls=calls,
                input=tokens_in,
                output=tokens_out,
                cache_read=read,
                cache_write=write,
                reasoning=reasoning,
            )
        )
    return out


def usage_sql(store: Store, wanted: UsageFilter, groups: frozenset[str]) -> tuple[str, dict[str, object]]:
    """Return the read ``usage_rows`` makes and its parameters: (day, model, the groups' columns, then calls and
    the five sums)."""
    unknown = groups - USAGE_GROUPS.keys()
    if unknown:
        raise ValueError(f"cannot group usage by {', '.join(sorted(unknown))}")
    names = [name for name in USAGE_GROUPS if name in groups]
    extra = "".join(f", {USAGE_GROUPS[name]} AS g_{name}" for name in names)
    session_filter = ["1"]
    parameters: dict[str, object] = {"start": wanted.start, "end": wanted.end}
    if wanted.harness is not None:
        session_filter.append("harness = {harness:String}")
        parameters["harness"] = wanted.harness
    if wanted.project is not None:
        session_filter.append("project_id = {project:String}")
        parameters["project"] = wanted.project
    event_filter = ""
    if wanted.session_key is not None:
        session_filter.append("session_key = {session:UInt64}")
        event_filter = "AND session_key = {session:UInt64}"
        parameters["session"] = wanted.session_key
    sql = f"""
        SELECT toDate(ifNull(u.hour, s.updated_at)) AS day, ifNull(ifNull(u.model, s.model), '') AS model{extra},
               sum(u.calls), sum(ifNull(u.tokens_in, 0)), sum(ifNull(u.tokens_out, 0)),
               sum(ifNull(u.cache_read, 0)), sum(ifNull(u.cache_write, 0)), sum(ifNull(u.reasoning, 0))
        FROM (
            SELECT session_key, {_HOUR} AS hour, model, {_USED} AS calls, sum(usage_input) AS tokens_in,
                   sum(usage_output) AS tokens_out, sum(usage_cache_read) AS cache_read,
                   sum(usage_cache_write) AS cache_write, sum(usage_reasoning) AS reasoning
            FROM {store.table("events")}
            WHERE (({_HOUR} >= {{start:DateTime64(3, 'UTC')}} AND {_HOUR} < {{end:DateTime64(3, 'UTC')}})
                   OR isNull({_HOUR})) {event_filter}
            GROUP BY session_key, hour, model
        ) AS u
        INNER JOIN (
            SELECT session_key, harness, project_id, model, updated_at
            FROM {store.table("sessions")} FINAL
            WHERE {" AND ".join(session_filter)}
        ) AS s ON s.session_key = u.session_key
        WHERE u.calls > 0
          AND (u.hour IS NOT NULL OR (s.updated_at >= {{start:DateTime64(3, 'UTC')}}
                                      AND s.updated_at < {{end:DateTime64(3, 'UTC')}}))
        GROUP BY day, model{"".join(f", g_{name}" for name in names)}
        ORDER BY day, model{"".join(f", g_{name}" for name in names)}
    """
    return sql, parameters
