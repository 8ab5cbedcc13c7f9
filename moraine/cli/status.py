"""``moraine status``: what the store holds, per-source coverage, the agents found on this machine, and the most\nrecent ingest errors."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from moraine.config import load_config
from moraine.daemon.logmask import mask_credentials
from moraine.daemon.report import report_via_daemon
from moraine.daemon.writer_lock import open_unless_held
from moraine.errors import ConfigError, StoreError
from moraine.daemon.found import FoundAgent, agents_found, sessions_by_source
from moraine.ingest.adapters import has_adapter, load_problem, reader_for
from moraine.ingest.discovery import discover
from moraine.ingest.progress import describe
from moraine.semantic.service import semantic_state
from moraine.store.status import recent_errors, source_coverage, table_counts

__all__ = ["status"]


@click.command("status")
@click.option(
    "--errors", "error_limit", type=click.IntRange(min=0), default=10, help="Recent ingest errors to show."
)
@click.pass_context
def status(ctx: click.Context, error_limit: int) -> None:
    """Print store counts, per-source coverage (files found vs indexed) and recent ingest errors."""
    console = Console(width=None if Console().is_terminal else 160)
    raw = (ctx.obj or {}).get("config_path")
    try:
        config = load_config(Path(raw) if raw else None)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from exc
    served = report_via_daemon(config.home, error_limit)  # a running daemon holds the store: ask it
    backfill = None
    if served is not None:
        counts, coverage, errors, backfill = served.counts, served.coverage, served.errors, served.backfill
    else:
        try:
            store = open_unless_held(config)
        except StoreError as exc:
            raise click.ClickException(str(exc)) from exc
        try:
            counts = table_counts(store)
            coverage = source_coverage(store)
            errors = recent_errors(store, error_limit)
        except StoreError as exc:
            raise click.ClickException(str(exc)) from exc
        finally:
            store.close()
    console.print(f"store {mask_credentials(config.store_dsn)} (database {config.database})")
    console.print(" · ".join(f"{name} {count}" for name, count in counts.items() if name != "forgotten"))
    held = counts.get("forgotten", 0)
    console.print(f"forgotten: {held} session(s) held back from ingest (`moraine forget`)")
    console.print(f"semantic recall: {escape(semantic_state(config))}")
    if backfill is not None:
        console.print(f"backfill ({escape(str(backfill.get('state')))}): {escape(describe(backfill))}")
    table = Table(
        "source", "harness", "enabled", "found", "indexed", "sessions", "events", "errors", "last ingest"
    )
    for source in config.sources:
        cov = coverage.get(source.name)
        if load_problem(source.harness, source.format) is not None:
            found = "broken harness (moraine doctor)"
        elif not has_adapter(source.harness) or reader_for(source.format) is None:
            found = "no adapter yet"
        else:
            found = str(len(discover(source))) if source.enabled else "-"
        table.add_row(
            source.name,
            source.harness,
            "yes" if source.enabled else "no",
            found,
            str(cov.files if cov else 0),
            str(cov.sessions if cov else 0),
            str(cov.events if cov else 0),
            str(cov.errors if cov else 0),
            cov.last_ingest.isoformat(timespec="seconds") if cov and cov.last_ingest else "-",
        )
    console.print(table)
    _print_agents(console, agents_found(config.sources, sessions_by_source(coverage)))
    if errors:
        console.print("recent ingest errors:")
        for err in errors:
            console.print(
                f"  {err.at:%Y-%m-%d %H:%M:%S} {err.source} {err.path}:{err.line_no} {err.reason}: {err.detail[:160]}"
            )


def _print_agents(console: Console, agents: list[FoundAgent]) -> None:
    """Print the agents found on this machine (a source's location exists) with their session counts."""
    if not agents:
        console.print("agents found on this machine: none (no known agent's folder exists)")
        return
    console.print(f"agents found on this machine: {len(agents)}")
    for agent in agents:
        sessions = f"{agent.sessions} session{'' if agent.sessions == 1 else 's'}"
        off = "" if agent.enabled else " (source off)"
        where = ", ".join(agent.locations)
        console.print(f"  {escape(agent.display_name)} ({agent.harness}): {sessions}{off} · {escape(where)}")
