"""Command line: ``python -m tools.bench --events N [--corpus DIR] [--workers N] [--ingest-only] [--json out.json]``."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click
from rich.console import Console

from moraine.config import DEFAULT_INGEST_WORKERS, MAX_INGEST_WORKERS
from tools.bench.report import print_report
from tools.bench.cases import MAX_VARIANTS
from tools.bench.run import Options, run_benchmark

_SETTLE_HELP = (
    "Seconds without a background merge or mutation before reads are timed (twice: after the ingest and after the "
    "vectors are filled; merges run one after another, so one idle moment proves nothing)."
)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--events",
    type=click.IntRange(min=100),
    default=100_000,
    show_default=True,
    help="Corpus size (records).",
)
@click.option(
    "--corpus",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Reuse this generated corpus, or generate into it when empty (default: a temporary directory).",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Corpus seed.")
@click.option(
    "--json",
    "json_out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the report as JSON here.",
)
@click.option(
    "--repeat", type=click.IntRange(min=1), default=30, show_default=True, help="Warm calls per case."
)
@click.option(
    "--cold-repeat", type=click.IntRange(min=1), default=5, show_default=True, help="Cold calls per case."
)
@click.option(
    "--clients", type=click.IntRange(min=1), default=8, show_default=True, help="Concurrent clients."
)
@click.option(
    "--rounds",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Calls per case per concurrent client.",
)
@click.option(
    "--watch-probes",
    type=click.IntRange(min=0),
    default=5,
    show_default=True,
    help="Lines appended in watch mode (0: skip).",
)
@click.option(
    "--semantic-threads",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Also measure semantic recall with this many embedder threads: a second full ingest with the "
    "background vectorizer running, then hybrid search over a full vectors table (0: skip; needs moraine[semantic]).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=0, max=MAX_INGEST_WORKERS),
    default=DEFAULT_INGEST_WORKERS,
    show_default=True,
    help="[ingest] workers for the ingest (0: in-process; default: the product's default on this machine).",
)
@click.option(
    "--ingest-only", is_flag=True, help="Measure the ingest only (no tool latency, baseline or watch phases)."
)
@click.option(
    "--settle-quiet", type=click.FloatRange(min=0), default=20.0, show_default=True, help=_SETTLE_HELP
)
@click.option(
    "--max-variants",
    type=click.IntRange(min=1, max=MAX_VARIANTS),
    default=MAX_VARIANTS,
    show_default=True,
    help="Argument variants per case (each is called once untimed first; fewer make a quick run quicker).",
)
@click.option(
    "--first-calls/--no-first-calls",
    default=True,
    show_default=True,
    help="Right after the ingest, call each global and session search once through a fresh `moraine mcp` (its "
    "daemon starting, the embedder catching up) and time those first calls.",
)
@click.option("--keep", is_flag=True, help="Keep the temporary store and corpus.")
def main(
    events: int,
    corpus: Path | None,
    seed: int,
    json_out: Path | None,
    repeat: int,
    cold_repeat: int,
    clients: int,
    rounds: int,
    watch_probes: int,
    semantic_threads: int,
    workers: int,
    ingest_only: bool,
    settle_quiet: float,
    max_variants: int,
    first_calls: bool,
    keep: bool,
) -> None:
    """Generate (or reuse) a corpus, ingest it into a fresh store and measure ingest and the four tools."""
    started = time.perf_counter()
    options = Options(
        events,
        corpus,
        seed,
        repeat,
        cold_repeat,
        clients,
        rounds,
        3,
        watch_probes,
        keep,
        semantic_threads,
        workers,
        ingest_only,
        settle_quiet,
        max_variants,
        first_calls,
    )
    report = run_benchmark(options)
    report.phases["total"] = time.perf_counter() - started
    console = Console() if sys.stdout.isatty() else Console(width=170)  # files/pipes: no wrapped columns
    print_report(report, console)
    if json_out is not None:
        json_out.write_text(json.dumps(report.to_json(), indent=2) + "\n", encoding="utf-8")
        click.echo(f"JSON report: {json_out}")


if __name__ == "__main__":
    main()
