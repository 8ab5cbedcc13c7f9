"""``moraine mcp``: the stdio MCP server an agent launches; relays to the daemon, starting it when absent."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import click

from moraine.config import load_config
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.settings import daemon_settings
from moraine.errors import ConfigError
from moraine.private_files import restrict_process
from moraine.projects.floor import resolve_floor
from moraine.store.reads.floor import ProjectFloor
from moraine.projects.settings import project_only_configured

__all__ = ["mcp"]


@click.command("mcp")
@click.option(
    "--project-only",
    is_flag=True,
    help="Show only sessions that originated in the launch directory's project (its Git repository, or exactly "
    "this directory without Git); also set by mcp.project_only in the config.",
)
@click.pass_context
def mcp(ctx: click.Context, project_only: bool) -> None:
    """Serve the four MCP tools over stdio (what an agent's MCP config launches), answered by the daemon."""
    restrict_process()  # the run directory, locks and a spawned daemon's log it creates are user-only
    logging.basicConfig(level=logging.WARNING, format="moraine mcp: %(levelname)s %(name)s: %(message)s")
    config_path = ctx.obj.get("config_path") if ctx.obj else None
    try:
        config = load_config(Path(config_path) if config_path else None)
        settings = daemon_settings(config)
        floor: ProjectFloor | None = None
        if project_only or project_only_configured(config):
            floor = resolve_floor(os.getcwd())
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from exc
    from moraine.daemon.relay import run_relay  # the MCP SDK loads only for this command

    run_relay(
        DaemonPaths(config.home),
        settings.start_timeout_seconds,
        Path(config_path) if config_path else None,
        floor,
    )
