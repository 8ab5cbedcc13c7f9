"""``python -m tools.bench.usage``: how long ``moraine usage`` takes over a large store (its p50/p95).

Ingests a generated corpus (``python -m tools.corpus``) into a store under ``--home`` the first time (kept: later
runs reuse it), then times the summary ``moraine usage`` prints (``moraine.usage.summary.usage_summary``: the store's
grouped read and the pricing per model and day) for a window of ``--days`` ending at the newest stored event, grouped
as ``--by`` says (default by day and model): one cold call, then ``--repeat`` warm ones. With ``--cli`` it also
times the whole command in a fresh process (start-up included), a few times.

    python -m tools.bench.usage --corpus /tmp/c1m --home /tmp/usage-bench
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import click

from moraine.config import HARNESSES
from moraine.store.client import Store
from moraine.usage.request import DIMENSIONS, parse_usage_request
from moraine.usage.summary import usage_summary
from tools.bench.home import bench_env, write_config
from tools.bench.ingest import run_ingest
from tools.bench.stats import Latency


@click.command()
@click.option(
    "--corpus", type=click.Path(file_okay=False, path_type=Path), required=True, help="A generated corpus."
)
@click.option(
    "--home", type=click.Path(file_okay=False, path_type=Path), required=True, help="The kept store's home."
)
@click.option(
    "--days", type=click.IntRange(min=1), default=30, show_default=True, help="The window's length."
)
@click.option(
    "--by", "by", multiple=True, type=click.Choice(DIMENSIONS), help="Grouping (default: day, model)."
)
@click.option("--repeat", type=click.IntRange(min=1), default=50, show_default=True, help="Warm calls.")
@click.option(
    "--cli", "cli_runs", type=click.IntRange(min=0), default=0, help="Also run the command this often."
)
def main(corpus: Path, home: Path, days: int, by: tuple[str, ...], repeat: int, cli_runs: int) -> None:
    """Time ``moraine usage`` over a kept store (ingesting the corpus into it the first time)."""
    manifest = json.loads((corpus / "manifest.json").read_text(encoding="utf-8"))
    if not (home / "store").exists():
        write_config(home, corpus, manifest)
        run = run_ingest(home, int(manifest["events"]), int(manifest["bytes"]))
        click.echo(
            f"ingested {run.stored_events:,} events in {run.ingest_seconds:.0f} s into {home / 'store'}"
        )
    store = Store.open(f"chdb://{home / 'store'}", "moraine")
    try:
        newest = store.query(f"SELECT max(timestamp) FROM {store.table('events')}")[0][0]
        start = newest - timedelta(days=days)
        fields = {
            "start": [start.isoformat()],
            "end": [newest.isoformat()],
            "by": list(by or ("day", "model")),
        }
        wanted = parse_usage_request(fields, newest, tuple(HARNESSES))
        events = int(store.query(f"SELECT count() FROM {store.table('events')}")[0][0])
        began = time.perf_counter()
        summary = usage_summary(store, wanted)
        cold = time.perf_counter() - began
        warm = []
        for _ in range(repeat):
            began = time.perf_counter()
            usage_summary(store, wanted)
            warm.append(time.perf_counter() - began)
    finally:
        store.close()
    latency = Latency.of(warm)
    total = summary["total"]
    click.echo(f"store: {events:,} events; window {fields['start'][0]} .. {fields['end'][0]} ({days} days)")
    click.echo(
        f"by {', '.join(wanted.by)}: {len(summary['rows'])} rows, {total['calls']:,} model calls, "
        f"{total['tokens']['total']:,} tokens, ${total['cost_usd'] or 0:,.2f}"
    )
    click.echo(
        f"usage summary: cold {cold * 1000:.1f} ms; warm n={latency.n} p50 {latency.p50:.1f} ms p95 {latency.p95:.1f} ms"
    )
    if cli_runs:
        command = [sys.executable, "-c", "from moraine.entry import run; run()", "usage", "--json"]
        command += ["--since", fields["start"][0]]
        command += ["--until", fields["end"][0], *(f"--by={name}" for name in wanted.by)]
        walls = []
        for _ in range(cli_runs):
            began = time.perf_counter()
            subprocess.run(command, env=bench_env(home), check=True, capture_output=True)
            walls.append(time.perf_counter() - began)
        whole = Latency.of(walls)
        click.echo(
            f"moraine usage (fresh process): n={whole.n} p50 {whole.p50:.0f} ms p95 {whole.p95:.0f} ms"
        )


if __name__ == "__main__":
    main()
