"""``moraine ingest``: index trace files once (progress bar + summary), or keep indexing with ``--watch``."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn

from moraine.config import Config, SourceConfig, load_config
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.writer_lock import StoreBusy, StoreWriterLock
from moraine.errors import ConfigError, StoreError
from moraine.ingest.discovery import matches
from moraine.ingest.progress import PassProgress
from moraine.ingest.pipeline import Ingestor, IngestSummary, ingest_once
from moraine.ingest.watch import watch
from moraine.mirror.settings import MirrorSettings, mirror_settings
from moraine.mirror.sync import mirror_once
from moraine.private_files import secure_home
from moraine.store.client import Store

__all__ = ["ingest"]


@click.command("ingest")
@click.option("--source", "sources", multiple=True, help="Only this configured source (repeatable).")
@click.option(
    "--watch", "watch_mode", is_flag=True, help="Keep running: index appended lines as they are written."
)
@click.option("--batch-size", type=click.IntRange(min=1), default=None, help="Events per published batch.")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.pass_context
def ingest(
    ctx: click.Context,
    sources: tuple[str, ...],
    watch_mode: bool,
    batch_size: int | None,
    paths: tuple[Path, ...],
) -> None:
    """Index trace files: every enabled source, only --source NAME, or explicit PATHS (files or directories).

    Refused while the daemon (`moraine serve`) owns the configured store: it ingests and watches them itself."""
    console = Console(stderr=True)
    try:
        config = load_config(_config_path(ctx))
        if batch_size is not None:
            config = _with_batch_size(config, batch_size)
        chosen = [config.source(name) for name in sources] if sources else None
        by_source = _assign_paths(config, chosen, paths) if paths else None
        mirror = mirror_settings(config)
        secure_home(config)  # umask 077 from here on; an older, too open install is tightened
        writer = StoreWriterLock(DaemonPaths(config.home).run_dir, config.store_dsn, config.database)
        writer.acquire("ingest")  # refused while the daemon (or another ingest) writes to this store
    except (ConfigError, StoreBusy) as exc:
        raise click.ClickException(str(exc)) from exc
    try:
        store = Store.open(config.store_dsn, config.database, limits=config.store_limits)
    except StoreError as exc:
        writer.release()
        raise click.ClickException(str(exc)) from exc
    try:
        if watch_mode:
            _watch(store, config, chosen, console)
            return
        summary = _one_pass(store, config, chosen, by_source, console)
        _mirror(store, mirror, console)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        store.close()
        writer.release()
    _print_summary(console, summary)


def _config_path(ctx: click.Context) -> Path | None:
    raw = (ctx.obj or {}).get("config_path")
    return Path(raw) if raw else None


def _with_batch_size(config: Config, batch_size: int) -> Config:
    from dataclasses import replace

    return replace(config, batch_size=batch_size)


def _assign_paths(
    config: Config, chosen: list[SourceConfig] | None, paths: tuple[Path, ...]
) -> dict[str, list[Path]]:
    """Give each explicit path to its source: the one --source named, else the source whose glob matches it."""
    if chosen and len(chosen) > 1:
        raise ConfigError("explicit PATHS take at most one --source")
    out: dict[str, list[Path]] = {}
    for path in paths:
        path = path.absolute()
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for file in files:
            if chosen:
                if path.is_dir() and chosen[0].format == "jsonl" and file.suffix != ".jsonl":
                    continue
                out.setdefault(chosen[0].name, []).append(file)
                continue
            owner = next((s for s in config.sources if matches(s, file)), None)
            if owner is None:
                if path.is_dir():
                    continue
                raise ConfigError(f"{file} matches no configured source's glob; pass --source NAME")
            out.setdefault(owner.name, []).append(file)
    if not out:
        raise ConfigError(
            "no trace files found under the given paths; pass --source NAME for other locations"
        )
    return out


def _one_pass(
    store: Store,
    config: Config,
    chosen: list[SourceConfig] | None,
    by_source: dict[str, list[Path]] | None,
    console: Console,
) -> IngestSummary:
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[line]}"),
    )
    with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("ingest", total=None, line="")
        state = PassProgress()

        def report(done: int, total: int, events: int) -> None:
            state.update(done, total, events)
            progress.update(task, completed=done, total=total, line=state.line())

        names = [s.name for s in chosen] if chosen else None
        return ingest_once(store, config, sources=names, paths=by_source, progress=report)


def _watch(store: Store, config: Config, chosen: list[SourceConfig] | None, console: Console) -> None:
    sources = chosen or [s for s in config.sources if s.enabled]
    stop = threading.Event()
    ingestor = Ingestor(
        store, batch_size=config.batch_size, redact=config.redact, stop=stop, workers=config.workers
    )

    def on_pass(summary: IngestSummary) -> None:
        if summary.events or summary.errors or summary.rewritten or summary.reread:
            _print_summary(console, summary)

    console.print(f"watching {len(sources)} source(s); Ctrl-C to stop (pid {os.getpid()})")
    try:
        watch(ingestor, sources, config.rescan_seconds, on_pass)
    except KeyboardInterrupt:
        stop.set()


def _mirror(store: Store, settings: MirrorSettings, console: Console) -> None:
    """Mirror the routed sessions to their backends (a backend that is down is caught up on a later run)."""
    if not settings.backends:
        return
    for name, report in mirror_once(store, settings).backends.items():
        if report.error:
            console.print(f"mirror {name}: delayed ({report.pending} session(s) pending): {report.error}")
        elif report.sessions:
            console.print(f"mirror {name}: {report.sessions} session(s), {report.events} event(s) copied")


def _print_summary(console: Console, summary: IngestSummary) -> None:
    console.print(
        f"files {summary.files} (unchanged {summary.unchanged}, rewritten {summary.rewritten}, "
        f"re-read for a changed adapter {summary.reread}) · "
        f"sessions {summary.sessions} · events {summary.events} · errors {summary.errors} · "
        f"{summary.seconds:.2f} s"
    )
    if summary.no_adapter:
        console.print(f"no adapter yet: {', '.join(summary.no_adapter)}")
