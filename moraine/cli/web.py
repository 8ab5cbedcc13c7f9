"""``moraine web``: open the web page in a browser, logged in through a one-time ticket (starts the daemon if absent).

The ticket reaches the browser through a user-only file (``moraine.access.login_page``), never on a command line.
"""

from __future__ import annotations

import webbrowser
from pathlib import Path

import click

from moraine.access.login_page import write_login_page
from moraine.config import load_config
from moraine.daemon.client import DaemonUnreachable, login_path
from moraine.daemon.launcher import DaemonStartError, ensure_daemon
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.settings import daemon_settings
from moraine.errors import ConfigError

__all__ = ["web"]


@click.command("web")
@click.option("--no-open", is_flag=True, help="Only write the login page and print its file:// URL.")
@click.pass_context
def web(ctx: click.Context, no_open: bool) -> None:
    """Open the web page, logged in: writes a one-time login page (valid once, for a minute) and opens it.

    The page is a user-only file in $MORAINE_HOME/run that forwards your browser to the daemon's one-time login
    link, so the link never appears on a command line other accounts can list. The login hands the browser tab a
    page token that the page sends as a header (never a cookie, which every other local server the browser visits
    would receive); a new tab borrows it from an open, logged-in one. It lasts a day, renewed while the page is
    used, and stops working when the daemon restarts or the install's secret ($MORAINE_HOME/run/http-secret) is
    replaced: run `moraine web` again."""
    config_path = ctx.obj.get("config_path") if ctx.obj else None
    try:
        config = load_config(Path(config_path) if config_path else None)
        settings = daemon_settings(config)
        paths = DaemonPaths(config.home)
        state = ensure_daemon(
            paths, settings.start_timeout_seconds, Path(config_path) if config_path else None
        )
        link = f"http://127.0.0.1:{state.port}{login_path(Path(state.socket))}"
        page = write_login_page(paths.run_dir, link).absolute().as_uri()
    except (ConfigError, DaemonStartError, DaemonUnreachable, OSError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(page)
    if not no_open and not webbrowser.open(page):
        click.echo("no browser could be started here: open the page above yourself", err=True)
