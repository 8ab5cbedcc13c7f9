"""The targets the figures are held to (issues 4 and 5: stated for 1,000,000 events on the 2-core machine)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tools.bench.first_call import POOLED

__all__ = ["Target", "TARGETS", "check_targets"]

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Target:
    name: str
    unit: str
    limit: float
    higher_is_better: bool
    figure: Callable[[Json], float | None]


def _warm(report: Json, prefix: str, key: str = "p95_ms") -> float | None:
    values = [c[key] for c in report["warm"] if c["case"].startswith(prefix) and key in c]
    return max(values) if values else None


def _worst(report: Json, *prefixes: str) -> float | None:
    values = [v for v in (_warm(report, p) for p in prefixes) if v is not None]
    return max(values) if values else None


def _ingest(report: Json, key: str) -> float | None:
    ingest = report.get("ingest")
    return float(ingest[key]) if ingest else None


def _newest(report: Json) -> float | None:
    ingest = report.get("ingest") or {}
    newest = ingest.get("newest") or {}
    value = newest.get("seconds")
    return float(value) if value is not None else None


def _watch(report: Json) -> float | None:
    watch = report.get("watch") or {}
    value = watch.get("max_ms")
    return float(value) if value is not None else None


def _speedup(report: Json) -> float | None:
    ratios = report.get("search_speedup_vs_baseline") or {}
    return min(ratios.values()) if ratios else None


def _hybrid(report: Json, key: str = "warm") -> float | None:
    semantic = report.get("semantic") or {}
    values = [c["p95_ms"] for c in semantic.get(key) or [] if "p95_ms" in c]
    return max(values) if values else None


def _first_call(report: Json) -> float | None:
    first = report.get("first_calls_via_mcp") or {}
    values = [c["p95_ms"] for c in first.get("cases") or [] if c["case"] == POOLED and "p95_ms" in c]
    return values[0] if values else None


def _embedder_ingest_ratio(report: Json) -> float | None:
    semantic = report.get("semantic") or {}
    again, alone = semantic.get("ingest_with_embedder"), report.get("ingest")
    if not again or not alone or not alone["events_per_second"]:
        return None
    return 100.0 * float(again["events_per_second"]) / float(alone["events_per_second"])


TARGETS = (
    Target("full ingest throughput", "events/s", 25_000, True, lambda r: _ingest(r, "events_per_second")),
    Target("ingest peak RSS", "MB", 2_048, False, lambda r: _ingest(r, "peak_rss_mb")),
    Target("newest session searchable after a first backfill starts (issue 19)", "s", 10, False, _newest),
    Target("new line searchable in watch mode (slowest probe)", "ms", 1_000, False, _watch),
    Target("search_sessions warm p95 (worst case)", "ms", 100, False, lambda r: _warm(r, "search")),
    Target("search speed-up over grep (worst class, p50)", "x", 20, True, _speedup),
    Target(
        "first call of a query through moraine mcp right after the ingest, p95 (every query; issue 35)",
        "ms",
        100,
        False,
        _first_call,
    ),
    Target("open event warm p95", "ms", 30, False, lambda r: _warm(r, "open event")),
    Target(
        "open 50-child page warm p95 (worst)",
        "ms",
        50,
        False,
        lambda r: _worst(r, "open session page", "open turn page"),
    ),
    Target("list_sessions warm p95", "ms", 50, False, lambda r: _warm(r, "list_sessions")),
    Target("hybrid search warm p95 (worst case; issue 12)", "ms", 100, False, _hybrid),
    Target(
        "hybrid search warm p95 while the embedder works (worst case)",
        "ms",
        100,
        False,
        lambda r: _hybrid(r, "warm_embedder_busy"),
    ),
    Target(
        "ingest throughput with the embedder running (issue 12)",
        "% of lexical-only",
        95,
        True,
        _embedder_ingest_ratio,
    ),
)


def check_targets(report: Json) -> list[Json]:
    """Return each target with the figure and whether it is met (None when the figure is missing)."""
    out = []
    for target in TARGETS:
        figure = target.figure(report)
        met = (
            None
            if figure is None
            else (figure >= target.limit if target.higher_is_better else figure <= target.limit)
        )
        out.append(
            {
                "target": target.name,
                "limit": f"{'>=' if target.higher_is_better else '<='} {target.limit:g} {target.unit}",
                "figure": None if figure is None else round(figure, 1),
                "unit": target.unit,
                "met": met,
            }
        )
    return out
