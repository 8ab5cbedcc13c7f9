"""``moraine serve``: the daemon (owns the store, ingests and watches, serves MCP and the HTTP facade)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from moraine.config import load_config
from moraine.daemon.settings import daemon_settings
from moraine.errors import ConfigError, StoreError
from moraine.hooks.settings import hook_settings

__all__ = ["serve"]


@click.command("serve")
@click.option(
    "--port",
    default=None,
    type=click.IntRange(0, 65535),
    help="Loopback TCP port (default: [daemon] port, 0 = any free port).",
)
@click.option("--spawned", is_flag=True, hidden=True, help="Started by `moraine mcp`: exit when idle.")
@click.pass_context
def serve(ctx: click.Context, port: int | None, spawned: bool) -> None:
    """Run the daemon: index every enabled source, keep watching, serve MCP (http://127.0.0.1:PORT/mcp and a
    user-only Unix socket under $MORAINE_HOME/run) and the HTTP facade (POST /v1/tools/<tool>)."""
    from moraine.daemon.lifecycle import (
        DaemonAlreadyRunning,
        run_daemon,
    )  # heavy: loaded for this command only
    from moraine.daemon.writer_lock import StoreBusy

    config_path = ctx.obj.get("config_path") if ctx.obj else None
    try:
        config = load_config(Path(config_path) if config_path else None)
        settings = daemon_settings(config)
        hook_settings(config)  # a mistake in [hooks] stops the start here, not at the first hook
        if port is not None:
            settings = replace(settings, port=port)
        run_daemon(config, settings, spawned=spawned)
    except (ConfigError, StoreError, DaemonAlreadyRunning, StoreBusy, OSError) as exc:
        raise click.ClickException(str(exc)) from exc
