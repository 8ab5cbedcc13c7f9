"""``moraine web``: open the web page in a browser, logged in through a one-time link (starts the daemon if absent)."""

from __future__ import annotations

import webbrowser
from pathlib import Path

import click

from moraine.config import load_config
from moraine.daemon.client import DaemonUnreachable, login_path
from moraine.daemon.launcher import DaemonStartError, ensure_daemon
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.settings import daemon_settings
from moraine.errors import ConfigError

__all__ = ["web"]


@click.command("web")
@click.option("--no-open", is_flag=True, help="Only print the link (open it yourself within a minute).")
@click.pass_context
def web(ctx: click.Context, no_open: bool) -> None:
    """Open the web page: prints a one-time login link (valid once, for a minute) and opens it in your browser.

    The link sets an HttpOnly, SameSite=Strict session cookie, so the page keeps working until the install's
    secret ($MORAINE_HOME/run/http-secret) is replaced."""
    config_path = ctx.obj.get("config_path") if ctx.obj else None
    try:
        config = load_config(Path(config_path) if config_path else None)
        settings = daemon_settings(config)
        paths = DaemonPaths(config.home)
        state = ensure_daemon(
            paths, settings.start_timeout_seconds, Path(config_path) if config_path else None
        )
        link = f"http://127.0.0.1:{state.port}{login_path(Path(state.socket))}"
    except (ConfigError, DaemonStartError, DaemonUnreachable, OSError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(link)
    if not no_open and not webbrowser.open(link):
        click.echo("no browser could be started here: open the link above yourself", err=True)
