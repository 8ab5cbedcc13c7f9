"""``moraine usage``: tokens and their cost per day, week, month, model, harness, project or session.

Through the daemon when it runs (it holds the store: ``GET /v1/daemon/usage``), else on the store itself, as
``moraine status`` does; both answer with ``moraine.usage.summary``'s document, which ``--json`` prints as it is.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from moraine.cli.when import window_end, window_options, window_start
from moraine.cli.context import command_config
from moraine.config import HARNESSES, Config
from moraine.usage.request import DIMENSIONS, UsageRequest, UsageRequestError, parse_usage_request

__all__ = ["usage"]

_KINDS = (
    ("input", "input"),
    ("output", "output"),
    ("cache_write", "cache write"),
    ("cache_read", "cache read"),
)


@click.command("usage")
@window_options("any time")
@click.option(
    "--by",
    "by",
    multiple=True,
    type=click.Choice(DIMENSIONS),
    help="Group rows by this (repeatable; default day). Costs are priced per model and day whatever the grouping.",
)
@click.option("--harness", default=None, help="Only this harness, e.g. codex or claude-code.")
@click.option(
    "--project",
    default=None,
    help="Only sessions of this project: a directory (its project is found as at ingest) or a project ID.",
)
@click.option("--session", default=None, metavar="ID", help="Only this session (a session ID).")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the summary as JSON, with the price table's source and version.",
)
@click.pass_context
def usage(
    ctx: click.Context,
    since: str | None,
    until: str | None,
    by: tuple[str, ...],
    harness: str | None,
    project: str | None,
    session: str | None,
    as_json: bool,
) -> None:
    """Show the tokens (input, output, cache write, cache read) the agents' model calls used and what they cost.

    Prices come from the genai-prices table installed with Moraine (no network), per model and day; a model it does
    not know is listed as unpriced with its tokens, never as $0. Usage is counted in whole UTC hours: a window's
    start or end inside an hour takes that whole hour (the window used is printed)."""
    now = datetime.now(UTC)
    fields = {
        "start": [window_start(since, now)] if since else [],
        "end": [window_end(until, now)] if until else [],
        "by": list(by),
        "harness": [harness] if harness else [],
        "project": [_project(project)] if project else [],
        "session": [session] if session else [],
    }
    try:
        wanted = parse_usage_request({k: v for k, v in fields.items() if v}, now, tuple(HARNESSES))
    except UsageRequestError as exc:
        raise click.UsageError(str(exc)) from exc
    summary = _summary(command_config(ctx), wanted)
    if as_json:
        click.echo(json.dumps(summary, indent=2, ensure_ascii=False))
        return
    _render(Console(width=None if Console().is_terminal else 160), summary)


def _project(value: str) -> str:
    """Return the project ID of a directory (as ingest sets ``sessions.project_id``), or ``value`` itself."""
    from moraine.projects.projects import session_project

    if os.path.isdir(value):
        return session_project(os.path.abspath(value)) or os.path.abspath(value)
    return value


def _summary(config: Config, wanted: UsageRequest) -> dict[str, Any]:
    """Return the summary from the daemon serving the store, or from the store when no daemon runs."""
    from moraine.daemon.client import DaemonUnreachable
    from moraine.daemon.launcher import live_state
    from moraine.daemon.paths import DaemonPaths
    from moraine.daemon.usage import UsageRefused, fetch_usage
    from moraine.daemon.writer_lock import open_unless_held
    from moraine.errors import StoreError
    from moraine.usage.summary import usage_summary

    state = live_state(DaemonPaths(config.home))
    if state is not None:
        try:
            return fetch_usage(Path(state.socket), wanted)
        except UsageRefused as exc:
            raise click.UsageError(str(exc)) from exc
        except DaemonUnreachable:
            pass  # it went away: read the store
    try:
        store = open_unless_held(config)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc
    try:
        return usage_summary(store, wanted)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        store.close()


def _cost(row: dict[str, Any]) -> str:
    cost = row["cost_usd"]
    shown = "unpriced" if cost is None else f"${cost:,.2f}"
    if cost is not None and row["unpriced_tokens"]:
        shown += " + unpriced"
    return shown


def _render(console: Console, summary: dict[str, Any]) -> None:
    by = summary["by"]
    table = Table(*by, *(label for _, label in _KINDS), "cost")
    for column in table.columns[len(by) :]:
        column.justify = "right"
    for row in summary["rows"]:
        cells = [escape(row["key"][name] or "-") for name in by]
        table.add_row(*cells, *(f"{row['tokens'][kind]:,}" for kind, _ in _KINDS), _cost(row))
    total = summary["total"]
    table.add_section()
    table.add_row(
        "total", *([""] * (len(by) - 1)), *(f"{total['tokens'][kind]:,}" for kind, _ in _KINDS), _cost(total)
    )
    window = summary["window"]
    console.print(
        f"usage from {window['start'][:16].replace('T', ' ')} to {window['end'][:16].replace('T', ' ')} UTC"
    )
    if not summary["rows"]:
        console.print("No token usage recorded in this window (`moraine status` shows what is indexed).")
        return
    console.print(table)
    if total["unpriced_models"]:
        models = ", ".join(total["unpriced_models"])
        console.print(
            f"unpriced (not in the price table): {escape(models)}: {total['unpriced_tokens']:,} tokens"
        )
    prices = summary["prices"]
    console.print(f"prices: {prices['name']} {prices['version']} ({prices['table']})")
