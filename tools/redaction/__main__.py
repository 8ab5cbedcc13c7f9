"""Command line: ``python -m tools.redaction DIR_OR_FILE... [--samples N]`` (false positives of redaction)."""

from __future__ import annotations

from pathlib import Path

import click

import moraine.redact
from tools.redaction.measure import measure


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("roots", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--samples", type=click.IntRange(min=0), default=10, show_default=True, help="Changed strings shown."
)
def main(roots: tuple[Path, ...], samples: int) -> None:
    """Redact every string of the trace files under ROOTS; report how many changed, by kind, and the time spent."""
    result = measure(list(roots), samples)
    click.echo(f"redaction from {Path(moraine.redact.__file__).parent}")
    click.echo(
        f"{result.files:,} files, {result.strings:,} strings ({result.characters / 1e6:,.1f} M characters): "
        f"{result.redacted:,} redacted ({result.redacted / max(result.strings, 1):.4%}); "
        f"{result.seconds:.2f} s in redact_text ({result.seconds / max(result.strings, 1) * 1e6:.1f} µs a string)"
    )
    for kind, count in result.kinds.most_common():
        click.echo(f"  {count:6,}  {kind}")
    for before, after in result.samples:
        at = next((i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b), 0)
        click.echo(f"--- {before[max(at - 80, 0) : at + 80]!r}\n+++ {after[max(at - 80, 0) : at + 80]!r}")


if __name__ == "__main__":
    main()
