"""``moraine serve``: MCP over streamable HTTP plus the HTTP facade, on 127.0.0.1 by default."""

from __future__ import annotations

import logging
from pathlib import Path

import click

from handlers import load_handlers
from moraine.config import load_config
from moraine.errors import ConfigError, StoreError
from moraine.server.runtime import open_deps
from moraine.server.service import ToolService
from moraine.server.transports import run_http

__all__ = ["serve"]


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535), help="TCP port.")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int) -> None:
    """Serve MCP at http://HOST:PORT/mcp and the HTTP facade (POST /v1/tools/<tool>, GET /openapi.json)."""
    logging.basicConfig(level=logging.INFO, format="moraine serve: %(levelname)s %(name)s: %(message)s")
    config_path = ctx.obj.get("config_path") if ctx.obj else None
    try:
        config = load_config(Path(config_path) if config_path else None)
        deps = open_deps(config)
    except (ConfigError, StoreError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(
        f"moraine: MCP at http://{host}:{port}/mcp, HTTP facade at http://{host}:{port}/v1/tools/<tool>"
    )
    try:
        run_http(ToolService(deps, load_handlers()), host, port)
    finally:
        deps.store.close()
