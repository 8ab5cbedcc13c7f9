"""``moraine setup``: print (or with --write, merge in) the MCP client configuration for Claude Code, Codex, Cursor."""

from __future__ import annotations

from pathlib import Path

import click

from moraine.access import ensure_secret
from moraine.config import load_config
from moraine.daemon.mcp_clients import CLIENTS, HttpTarget, SetupError, client_configs, write_config
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.settings import daemon_settings
from moraine.errors import ConfigError

__all__ = ["setup"]


@click.command("setup")
@click.option(
    "--client",
    "clients",
    multiple=True,
    type=click.Choice(CLIENTS),
    help="Only this client (repeatable; default: all three).",
)
@click.option("--write", is_flag=True, help="Merge the entry into each client's file (a backup is kept).")
@click.option(
    "--project-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where Claude Code's .mcp.json goes (default: the current directory).",
)
@click.option(
    "--http",
    is_flag=True,
    help="Connect the clients to the daemon's HTTP endpoint (needs a fixed [daemon] port) with the install's "
    "secret as a bearer header, instead of launching `moraine mcp`.",
)
@click.pass_context
def setup(
    ctx: click.Context, clients: tuple[str, ...], write: bool, project_dir: Path | None, http: bool
) -> None:
    """Show how each agent launches Moraine (`moraine mcp`), or write it into their configuration files."""
    target = _http_target(ctx) if http else None
    failed = False
    for config in client_configs(project_dir=project_dir, http=target):
        if clients and config.client not in clients:
            continue
        click.echo(f"# {config.client}: {config.path} ({config.hint})")
        click.echo(config.text)
        if not write:
            continue
        try:
            backup = write_config(config)
        except (SetupError, OSError) as exc:
            click.echo(f"# not written: {exc}", err=True)
            failed = True
            continue
        saved = f" (previous file saved as {backup})" if backup else ""
        click.echo(f"# wrote {config.path}{saved}\n")
    if failed:
        raise click.ClickException("some client configurations were not written (see above)")


def _http_target(ctx: click.Context) -> HttpTarget:
    """Return the daemon's HTTP endpoint and secret for this install (the secret is created if missing)."""
    config_path = ctx.obj.get("config_path") if ctx.obj else None
    try:
        config = load_config(Path(config_path) if config_path else None)
        port = daemon_settings(config).port
        paths = DaemonPaths(config.home)
        paths.prepare()
        secret = ensure_secret(paths.http_secret)
    except (ConfigError, OSError) as exc:
        raise click.ClickException(str(exc)) from exc
    if port == 0:
        raise click.ClickException(
            "HTTP clients need a fixed port: set `port = <number>` in the [daemon] table of the config, restart "
            "the daemon, then run `moraine setup --http` again (or use the default: clients launch `moraine mcp`)"
        )
    return HttpTarget(f"http://127.0.0.1:{port}/mcp", secret)
