"""``moraine mcp``: the stdio MCP server an agent launches (for now it opens the store itself)."""

from __future__ import annotations

import logging
from pathlib import Path

import click

from handlers import load_handlers
from moraine.config import load_config
from moraine.errors import ConfigError, StoreError
from moraine.server.runtime import open_deps
from moraine.server.service import ToolService
from moraine.server.transports import run_stdio

__all__ = ["mcp"]


@click.command("mcp")
@click.pass_context
def mcp(ctx: click.Context) -> None:
    """Serve the four MCP tools over stdio (what an agent's MCP config launches)."""
    logging.basicConfig(level=logging.WARNING, format="moraine mcp: %(levelname)s %(name)s: %(message)s")
    config_path = ctx.obj.get("config_path") if ctx.obj else None
    try:
        config = load_config(Path(config_path) if config_path else None)
        deps = open_deps(config, launch_dir=Path.cwd())
    except (ConfigError, StoreError) as exc:
        raise click.ClickException(str(exc)) from exc
    try:
        run_stdio(ToolService(deps, load_handlers()))
    finally:
        deps.store.close()
