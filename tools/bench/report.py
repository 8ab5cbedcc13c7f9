"""The benchmark report: one JSON document and a rich table of the same figures."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from tools.bench.baseline import Baseline
from tools.bench.ingest import IngestRun
from tools.bench.semantic import SemanticRun
from tools.bench.latency import CaseResult, ConcurrentResult
from tools.bench.relevance import Relevance
from tools.bench.targets import check_targets

__all__ = ["Report", "print_report"]

Json = dict[str, Any]


@dataclass(slots=True)
class Report:
    machine: Json
    corpus: Json
    client: str
    ingest: IngestRun | None = None
    watch: Json | None = None
    warm: list[CaseResult] = field(default_factory=list)
    cold: list[CaseResult] = field(default_factory=list)
    cold_method: str = ""
    concurrent: ConcurrentResult | None = None
    baseline: dict[str, Baseline] = field(default_factory=dict)
    relevance: Relevance | None = None
    phases: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    semantic: SemanticRun | None = None
    # Each query once through a fresh `moraine mcp` (tools.bench.first_call), every call pooled last.
    first_calls: list[CaseResult] = field(default_factory=list)
    daemon_start_seconds: float | None = None  # `moraine mcp` spawned -> its first answer

    def search_ratio(self) -> dict[str, float]:
        """Return baseline p50 / warm search p50, per query class (global scope)."""
        out = {}
        for cls, base in self.baseline.items():
            warm = next((r for r in self.warm if r.name == f"search {cls} global"), None)
            if warm is not None and warm.latency is not None and warm.latency.p50 > 0:
                # Two significant digits: a small corpus's 0.04x must not round to 0.
                out[cls] = float(f"{base.p50_ms / warm.latency.p50:.2g}")
        return out

    def to_json(self) -> Json:
        out = self._figures()
        out["targets"] = check_targets(out)
        return out

    def _figures(self) -> Json:
        def cases(results: list[CaseResult]) -> list[Json]:
            return [
                {
                    "case": r.name,
                    "tool": r.tool,
                    **(r.latency.to_json() if r.latency else {}),
                    **({"cpu_ms_per_call": round(r.cpu_ms, 2)} if r.cpu_ms is not None else {}),
                    "errors": r.errors,
                }
                for r in results
            ]

        concurrent = None
        if self.concurrent is not None:
            concurrent = {
                "clients": self.concurrent.clients,
                "calls": self.concurrent.calls,
                "seconds": round(self.concurrent.seconds, 2),
                "calls_per_second": round(self.concurrent.calls_per_second, 1),
                "cases": cases(self.concurrent.cases),
            }
        return {
            "machine": self.machine,
            "corpus": self.corpus,
            "client": self.client,
            "ingest": self.ingest.to_json() if self.ingest else None,
            "watch": self.watch,
            "warm": cases(self.warm),
            "first_calls_via_mcp": (
                {
                    "daemon_start_seconds": round(self.daemon_start_seconds or 0.0, 2),
                    "cases": cases(self.first_calls),
                }
                if self.first_calls
                else None
            ),
            "cold": cases(self.cold),
            "cold_method": self.cold_method,
            "concurrent": concurrent,
            "baseline": {
                cls: {"tool": b.tool, "p50_ms": round(b.p50_ms, 1), "runs": b.runs}
                for cls, b in self.baseline.items()
            },
            "search_speedup_vs_baseline": self.search_ratio(),
            "relevance": self.relevance.to_json() if self.relevance else None,
            "semantic": (
                {
                    **self.semantic.to_json(),
                    "warm": cases(self.semantic.warm),
                    "warm_embedder_busy": cases(self.semantic.busy),
                }
                if self.semantic
                else None
            ),
            "targets": [],
            "phases_seconds": {k: round(v, 1) for k, v in self.phases.items()},
            "notes": self.notes,
        }


def _latency_table(
    title: str, rows: list[tuple[str, CaseResult | None, CaseResult | None, CaseResult | None]]
) -> Table:
    table = Table(title=title)
    table.add_column("case")
    for head in (
        "warm p50",
        "warm p95",
        "warm p99",
        "CPU/call",
        "cold p50",
        "cold p95",
        "cold p99",
        "8× p50",
        "8× p95",
        "8× p99",
    ):
        table.add_column(head, justify="right")
    table.add_column("errors", justify="right")

    def cells(result: CaseResult | None) -> list[str]:
        if result is None or result.latency is None:
            return ["-", "-", "-"]
        lat = result.latency
        return [f"{lat.p50:.1f}", f"{lat.p95:.1f}", f"{lat.p99:.1f}"]

    for name, warm, cold, conc in rows:
        errors = sum(len(r.errors) for r in (warm, cold, conc) if r is not None)
        cpu = f"{warm.cpu_ms:.1f}" if warm is not None and warm.cpu_ms is not None else "-"
        table.add_row(name, *cells(warm), cpu, *cells(cold), *cells(conc), str(errors) if errors else "")
    return table


def print_report(report: Report, console: Console | None = None) -> None:
    """Print the report as rich tables."""
    console = console or Console()
    m, c = report.machine, report.corpus
    console.print(
        f"[bold]Moraine benchmark[/bold]: {c['events']:,} events, {c['files']:,} files, {c['mb']:.1f} MB "
        f"on {m['cpu']} ({m['nproc']} cores, {m['memory_gb']:.1f} GB RAM); tools via {report.client}"
    )
    if report.ingest is not None:
        i = report.ingest
        console.print(
            f"ingest: {i.events_per_second:,.0f} events/s, {i.mb_per_second:.2f} MB/s "
            f"({i.raw_events:,} records -> {i.stored_events:,} events in {i.ingest_seconds:.1f} s; "
            f"process wall {i.wall_seconds:.1f} s; {i.cpu_seconds:.0f} CPU s = "
            f"{i.raw_events / max(i.cpu_seconds, 1e-9):,.0f} events per CPU second), "
            f"peak RSS {i.peak_rss_mb:,.0f} MB, {i.errors} ingest errors"
        )
        if i.ingest_thread_cpu_seconds:
            console.print(
                f"ingest thread: {i.ingest_thread_cpu_seconds:.1f} CPU s = "
                f"{i.ingest_thread_cpu_seconds * 1e6 / max(i.raw_events, 1):,.0f} µs per record "
                "(reading, parsing, adapters, redaction, touches, tokenizing, row building)"
            )
        if i.workers:
            console.print(
                f"ingest workers: {i.workers}, {i.workers_cpu_seconds or 0:.1f} CPU s of the total; peak RSS "
                f"{i.own_peak_rss_mb or 0:,.0f} MB (store owner) + {i.workers_peak_rss_mb or 0:,.0f} MB (largest "
                f"worker) x {i.workers}; {i.cpu_seconds * 1e6 / max(i.raw_events, 1):,.0f} µs CPU per record"
            )
        if i.checksums:
            console.print(
                "ingest checksums (rows:hash): " + ", ".join(f"{t} {v}" for t, v in i.checksums.items())
            )
        if i.table_mib:
            console.print(
                f"store on disk right after the pass: {sum(i.table_mib.values()):,.1f} MiB ("
                + ", ".join(f"{t} {v:,.1f}" for t, v in i.table_mib.items() if v >= 0.1)
                + ")"
            )
        if i.newest is not None:
            n = i.newest
            console.print(
                "newest first: the session written just before the ingest started was never found by search"
                if n["seconds"] is None
                else f"newest first: the session written just before the ingest started was found by "
                f"search_sessions {n['seconds']:.1f} s after the ingest process started, with "
                f"{n['files_read']:,} of {n['files_total']:,} files read"
            )
    if report.ingest is not None and not report.warm and report.watch is None:  # --ingest-only
        for note in report.notes:
            console.print(f"note: {note}")
        return
    if report.watch is not None:
        w = report.watch
        if w.get("latency_ms") is not None:
            console.print(
                f"watch: a new line was searchable {w['latency_ms']:.0f} ms after it was written ({w['via']})"
            )
        else:
            console.print(f"watch: not measured: {w.get('reason')}")
    by_name = {r.name: r for r in report.warm}
    cold = {r.name: r for r in report.cold}
    conc = {r.name: r for r in report.concurrent.cases} if report.concurrent else {}
    rows = [(name, by_name.get(name), cold.get(name), conc.get(name)) for name in by_name]
    console.print(_latency_table("Tool latency (ms)", rows))
    if report.concurrent is not None:
        cc = report.concurrent
        console.print(
            f"8 concurrent clients: {cc.calls:,} calls in {cc.seconds:.1f} s = {cc.calls_per_second:.1f} calls/s"
        )
    console.print(f"cold = {report.cold_method}")
    if report.first_calls:
        _print_first_calls(report, console)
    if report.baseline:
        table = Table(title="Search vs. grep over the raw files (global scope, p50)")
        for head in ("query class", "baseline", "baseline ms", "moraine warm ms", "speed-up"):
            table.add_column(head, justify="right")
        ratios = report.search_ratio()
        for cls, base in report.baseline.items():
            warm = by_name.get(f"search {cls} global")
            moraine = f"{warm.latency.p50:.1f}" if warm and warm.latency else "-"
            ratio = f"{ratios[cls]:.1f}×" if cls in ratios else "-"
            table.add_row(cls, base.tool, f"{base.p50_ms:.0f}", moraine, ratio)
        console.print(table)
    if report.relevance is not None:
        r = report.relevance
        console.print(
            f"relevance: needle first {r.top1}/{r.checked}, in top 10 {r.top10}/{r.checked}; "
            f"file_attention exact {r.file_attention_exact}/{r.file_attention_checked}"
        )
        for miss in r.misses[:10]:
            console.print(f"  miss: {miss}")
    if report.semantic is not None:
        _print_semantic(report.semantic, console)
    table = Table(title=f"Targets (stated for 1,000,000 events; this run: {c['events']:,})")
    for head in ("target", "limit", "figure", "met"):
        table.add_column(head)
    for row in report.to_json()["targets"]:
        met = {True: "yes", False: "NO", None: "-"}[row["met"]]
        figure = "-" if row["figure"] is None else f"{row['figure']:,} {row['unit']}"
        table.add_row(row["target"], row["limit"], figure, met)
    console.print(table)
    for note in report.notes:
        console.print(f"note: {note}")


def _print_semantic(run: SemanticRun, console: Console) -> None:
    if run.ingest is not None:
        i = run.ingest
        console.print(
            f"ingest with the embedder running ({run.threads} thread(s), own process, lowest CPU priority): "
            f"{i.events_per_second:,.0f} events/s, {i.cpu_seconds:.0f} CPU s, peak RSS {i.peak_rss_mb:,.0f} MB, "
            f"{i.embedded or 0:,} passages embedded during the pass"
        )
    console.print(
        f"hybrid search over {run.vectors:,} vectors ({run.synthetic:,} synthetic, filled in {run.fill_seconds:.0f} s)"
    )
    busy = {r.name: r.latency for r in run.busy}
    if run.busy:
        console.print(
            f"'embedder busy' columns: the same calls while the background vectorizer embedded its backlog "
            f"over the same full table ({run.busy_embedded:,} real passages stored meanwhile; the embedder's process is "
            "stopped while a call runs)"
        )
    table = Table(title="search_sessions with hybrid ranking on (ms)")
    heads = ("case", "went hybrid", "warm p50", "warm p95", "warm p99", "CPU/call", "errors")
    for head in heads + (("embedder busy p50", "embedder busy p95") if run.busy else ()):
        table.add_column(head, justify="right")
    for r in run.warm:
        lat = r.latency
        cells = [f"{lat.p50:.1f}", f"{lat.p95:.1f}", f"{lat.p99:.1f}"] if lat else ["-", "-", "-"]
        cpu = f"{r.cpu_ms:.1f}" if r.cpu_ms is not None else "-"
        row = [r.name, run.hybrid_variants.get(r.name, "-"), *cells, cpu, str(len(r.errors) or "")]
        if run.busy:
            b = busy.get(r.name)
            row += [f"{b.p50:.1f}", f"{b.p95:.1f}"] if b else ["-", "-"]
        table.add_row(*row)
    console.print(table)


def _print_first_calls(report: Report, console: Console) -> None:
    console.print(
        f"first calls: `moraine mcp` answered {report.daemon_start_seconds or 0:.1f} s after it was spawned (its "
        "daemon starting on the store just written); then each query once, timed at the client"
    )
    table = Table(title="First call of each query through moraine mcp, right after the ingest (ms)")
    for head in ("case", "calls", "p50", "p95", "max", "errors"):
        table.add_column(head, justify="right")
    for r in report.first_calls:
        lat = r.latency
        cells = (
            [str(lat.n), f"{lat.p50:.1f}", f"{lat.p95:.1f}", f"{lat.max:.1f}"]
            if lat
            else ["0", "-", "-", "-"]
        )
        table.add_row(r.name, *cells, str(len(r.errors) or ""))
    console.print(table)
