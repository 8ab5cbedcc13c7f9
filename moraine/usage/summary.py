"""A usage summary: the store's (day, model, ...) rows priced and rolled up by the grouping asked for, as JSON.

Each store row is priced on its own model and day (``pricing.price_of``) before rows are added up, so a week or a
month spanning a price change costs what each day cost. A row whose model the price table does not know adds its
tokens to ``unpriced`` and nothing to ``cost_usd``: a group of only such rows has ``cost_usd`` null, never 0.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from moraine import ids
from moraine.store.client import Store
from moraine.store.reads.usage import UsageFilter, UsageRow, usage_rows
from moraine.usage.pricing import price_of, price_source
from moraine.usage.request import UsageRequest

__all__ = ["TOKEN_KINDS", "usage_summary"]

TOKEN_KINDS = ("input", "output", "cache_write", "cache_read")
# The groupings the store must keep apart (day and model always are).
_STORE_GROUPS = {"harness", "project", "session"}


@dataclass(slots=True)
class _Sum:
    calls: int = 0
    tokens: dict[str, int] = field(default_factory=lambda: dict.fromkeys((*TOKEN_KINDS, "reasoning"), 0))
    cost: Decimal = Decimal(0)
    priced_tokens: int = 0
    unpriced_tokens: int = 0
    unpriced_models: set[str] = field(default_factory=set)

    def add(self, row: UsageRow, cost: Decimal | None) -> None:
        self.calls += row.calls
        counts = _counts(row)
        for kind, count in counts.items():
            self.tokens[kind] += count
        used = sum(counts[kind] for kind in TOKEN_KINDS)
        if cost is None:
            self.unpriced_tokens += used
            self.unpriced_models.add(row.model or "(no model recorded)")
        else:
            self.cost += cost
            self.priced_tokens += used

    def to_json(self) -> dict[str, Any]:
        priced = self.priced_tokens > 0 or self.unpriced_tokens == 0
        return {
            "calls": self.calls,
            "tokens": {**self.tokens, "total": sum(self.tokens[kind] for kind in TOKEN_KINDS)},
            "cost_usd": float(self.cost) if priced else None,
            "unpriced_tokens": self.unpriced_tokens,
            "unpriced_models": sorted(self.unpriced_models),
        }


def _counts(row: UsageRow) -> dict[str, int]:
    return {
        "input": row.input,
        "output": row.output,
        "cache_write": row.cache_write,
        "cache_read": row.cache_read,
        "reasoning": row.reasoning,
    }


def _key(row: UsageRow, by: Iterable[str]) -> tuple[str, ...]:
    values = {
        "day": lambda: row.day.isoformat(),
        "week": lambda: (row.day - timedelta(days=row.day.weekday())).isoformat(),  # the Monday starting it
        "month": lambda: row.day.isoformat()[:7],
        "model": lambda: row.model,
        "harness": lambda: row.harness or "",
        "project": lambda: row.project or "",
        "session": lambda: ids.session_id(row.session_key) if row.session_key is not None else "",
    }
    return tuple(values[name]() for name in by)


def usage_summary(store: Store, request: UsageRequest) -> dict[str, Any]:
    """Return the summary: ``{"window", "by", "filters", "prices", "total", "rows"}``, rows ordered by key."""
    wanted = UsageFilter(request.start, request.end, request.harness, request.project, request.session_key)
    rows = usage_rows(store, wanted, frozenset(name for name in request.by if name in _STORE_GROUPS))
    total = _Sum()
    groups: dict[tuple[str, ...], _Sum] = {}
    for row in rows:
        cost = price_of(row.model, row.day, row.input, row.output, row.cache_read, row.cache_write)
        total.add(row, cost)
        groups.setdefault(_key(row, request.by), _Sum()).add(row, cost)
    return {
        "window": {"start": _rfc3339(request.start), "end": _rfc3339(request.end)},
        "by": list(request.by),
        "filters": {
            "harness": request.harness,
            "project": request.project,
            "session": ids.session_id(request.session_key) if request.session_key is not None else None,
        },
        "prices": price_source(),
        "total": total.to_json(),
        "rows": [
            {"key": dict(zip(request.by, key, strict=True)), **summed.to_json()}
            for key, summed in sorted(groups.items())
        ],
    }


def _rfc3339(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
