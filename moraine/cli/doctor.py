"""``moraine doctor``: check the configuration, sources, daemon, store and logs; say what to do about each problem."""

from __future__ import annotations

from pathlib import Path

import click

from moraine.private_files import restrict_process

__all__ = ["doctor"]

_MARKS = {"ok": "ok  ", "warn": "WARN", "fail": "FAIL"}


@click.command("doctor")
@click.option(
    "--all",
    "every_source",
    is_flag=True,
    help="List every source: also those whose globs match nothing and the disabled ones (default: one line "
    "counts each kind).",
)
@click.pass_context
def doctor(ctx: click.Context, every_source: bool) -> None:
    """Diagnose Moraine: exit status 1 when a check fails.

    Shows the sources whose files are here, every warning and failure, and one line counting the sources whose
    globs match nothing (--all lists them).
    """
    from moraine.daemon.diagnose import run_checks  # loaded for this command only

    restrict_process()  # the checks may open (and so create) an embedded store: user-only
    raw = (ctx.obj or {}).get("config_path")
    checks = run_checks(Path(raw) if raw else None, every_source)
    for check in checks:
        click.echo(f"[{_MARKS[check.status]}] {check.name}: {check.detail}")
        if check.fix:
            click.echo(f"       -> {check.fix}")
    failed = [c for c in checks if c.status == "fail"]
    if failed:
        raise click.ClickException(f"{len(failed)} check(s) failed: {', '.join(c.name for c in failed)}")
