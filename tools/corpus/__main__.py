"""Command line: ``python -m tools.corpus --events N --out DIR [--seed S]``."""

from __future__ import annotations

import time
from pathlib import Path

import click

from tools.corpus.generate import generate


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--events", type=click.IntRange(min=100), required=True, help="Number of trace records to write."
)
@click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="Empty output directory."
)
@click.option("--seed", type=int, default=1, show_default=True, help="Random seed (same seed, same bytes).")
def main(events: int, out: Path, seed: int) -> None:
    """Write a synthetic Codex + Claude Code trace corpus and its needle manifest."""
    if out.exists() and any(out.iterdir()):
        raise click.UsageError(f"--out {out} is not empty; give a new or empty directory")
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    summary = generate(out, events, seed)
    elapsed = time.perf_counter() - started
    click.echo(
        f"wrote {summary.events:,} events in {summary.files:,} files ({summary.bytes / 1e6:,.1f} MB) "
        f"in {elapsed:.1f} s; manifest: {summary.manifest}"
    )


if __name__ == "__main__":
    main()
