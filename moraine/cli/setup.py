"""``moraine setup``: print (or with --write, merge in) the MCP client configuration for Claude Code, Codex, Cursor."""

from __future__ import annotations

from pathlib import Path

import click

from moraine.daemon.mcp_clients import CLIENTS, SetupError, client_configs, write_config

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
def setup(clients: tuple[str, ...], write: bool, project_dir: Path | None) -> None:
    """Show how each agent launches Moraine (`moraine mcp`), or write it into their configuration files."""
    failed = False
    for config in client_configs(project_dir=project_dir):
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
