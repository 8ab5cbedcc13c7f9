"""``moraine import PATH``: read a ChatGPT or Claude.ai data export into the store (exports are never watched)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable
from pathlib import Path

import click
from rich.console import Console

from moraine.config import load_config
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.writer_lock import StoreBusy, StoreWriterLock
from moraine.errors import ConfigError, StoreError
from moraine.config import export_source
from moraine.harnesses._shared.export import ExportError, find_export, legacy_copies
from moraine.harnesses.registry import harness
from moraine.ingest.adapters import adapter_for
from moraine.harness_api.adapter import Adapter, StreamContext
from moraine.harness_api.model import Emitted, RawRecord
from moraine.ingest.exports import replace_older_exports
from moraine.ingest.pipeline import Ingestor
from moraine.private_files import secure_home
from moraine.store.client import Store

__all__ = ["import_command"]

_EVERY = 25  # conversations between two updates of the progress line


class _Counted:
    """An adapter that reports every ``_EVERY`` conversations it reads (the progress line), then reads them."""

    def __init__(self, inner: Adapter | None, report: Callable[[int], None]) -> None:
        self.inner, self.report, self.count = inner, report, 0
        self.harness = inner.harness if inner else ""

    def normalize(self, record: RawRecord, ctx: StreamContext) -> Iterable[Emitted]:
        """Count the conversation, then return what the export's own adapter makes of it."""
        self.count += 1
        if self.count % _EVERY == 0:
            self.report(self.count)
        return self.inner.normalize(record, ctx) if self.inner else []


@click.command("import")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.pass_context
def import_command(ctx: click.Context, path: Path) -> None:
    """Index a ChatGPT or Claude.ai data export: its .zip, unpacked folder or conversations.json.

    The export is read where it lies; Moraine keeps no copy of it. Importing the same export again adds nothing; a
    newer export of the same service replaces the older one's conversations. A zip whose conversation files would
    decompress more than 100 times, or to more than 4 GiB, is refused. Refused while the daemon (`moraine serve`)
    owns the configured store."""
    console = Console(stderr=True)
    raw = (ctx.obj or {}).get("config_path")
    try:
        config = load_config(Path(raw) if raw else None)
        found = find_export(path)
        secure_home(config)
        writer = StoreWriterLock(DaemonPaths(config.home).run_dir, config.store_dsn, config.database)
        writer.acquire("import")
    except (ConfigError, ExportError, StoreBusy) as exc:
        raise click.ClickException(str(exc)) from exc
    declared = harness(found.harness)
    name = declared.display_name if declared else found.harness
    try:
        files = [found.archive] if found.archive is not None else [Path(name) for name in found.files]
        size = sum(p.stat().st_size for p in files) / 1e6
        console.print(f"importing a {name} export: {len(found.files)} conversations file(s), {size:.1f} MB")
        store = Store.open(config.store_dsn, config.database, limits=config.store_limits)
        source = export_source(found.harness, str(files[0].absolute()))
        adapter = adapter_for(found.harness)
        try:
            replace_older_exports(store, source, files)
            # Earlier versions kept a raw copy of every export here: the store no longer reads it, nor keeps it
            # (unless that copy is what is being imported now).
            copies = legacy_copies(config.home)
            if not any(p.absolute().is_relative_to(copies.absolute()) for p in files):
                shutil.rmtree(copies, ignore_errors=True)
            with console.status(f"{name}: reading conversations") as status:
                counted = _Counted(adapter, lambda n: status.update(f"{name}: {n} conversations read"))
                ingestor = Ingestor(store, batch_size=config.batch_size, redact=config.redact)
                summary = ingestor.run(
                    [source],
                    paths={source.name: files},
                    adapters={source.name: counted} if adapter else None,
                )
        finally:
            store.close()
    except (OSError, StoreError) as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        writer.release()
    console.print(
        f"{name}: files {summary.files} (unchanged {summary.unchanged}) · conversations {summary.sessions} · "
        f"events {summary.events} · errors {summary.errors} · {summary.seconds:.2f} s"
    )
