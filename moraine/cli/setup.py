"""``moraine setup``: print (or with --write, merge in) the MCP client configuration of every agent found here, and
with --hooks the agents' hook entries (``moraine.daemon.hook_clients``); ``--hooks --remove`` takes those out."""

from __future__ import annotations

from pathlib import Path

import click

from moraine.access import ensure_secret
from moraine.config import load_config
from moraine.daemon.hook_clients import hook_client_names, hook_configs, remove_hooks, write_hooks
from moraine.daemon.mcp_clients import (
    ClientConfig,
    HttpTarget,
    SetupError,
    client_configs,
    client_names,
    write_config,
)
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.settings import daemon_settings
from moraine.errors import ConfigError

__all__ = ["setup"]


@click.command("setup")
@click.option(
    "--client",
    "clients",
    multiple=True,
    type=click.Choice(client_names()),
    help="Only this client (repeatable; default: every client found on this machine).",
)
@click.option("--all", "every", is_flag=True, help="Every known client, found on this machine or not.")
@click.option("--write", is_flag=True, help="Merge the entry into each client's file (a backup is kept).")
@click.option(
    "--project",
    is_flag=True,
    help="Write project-scope files (e.g. Claude Code's .mcp.json) where a client has one, instead of the "
    "user's own files. Project files are often committed: the default is the user scope.",
)
@click.option(
    "--project-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The project for --project (default: the current directory).",
)
@click.option(
    "--http",
    is_flag=True,
    help="Connect the clients to the daemon's HTTP endpoint (needs a fixed [daemon] port) with the install's "
    "secret as a bearer header, instead of launching `moraine mcp`. The secret is written, never printed.",
)
@click.option(
    "--hooks",
    is_flag=True,
    help="Also the hooks of the agents whose command hooks can add context (Claude Code, Codex, Cursor, Gemini "
    "CLI, Qwen Code; docs/harnesses.md, Hooks): recall at session start, before a prompt is answered and after a "
    "compaction, where the agent has each (`moraine hook`). Off until written.",
)
@click.option(
    "--remove", is_flag=True, help="With --hooks: take Moraine's hooks out of each file (a backup is kept)."
)
@click.option(
    "--project-only",
    is_flag=True,
    help="With --hooks: the prompt hook searches only the working folder's project.",
)
@click.pass_context
def setup(
    ctx: click.Context,
    clients: tuple[str, ...],
    every: bool,
    write: bool,
    project: bool,
    project_dir: Path | None,
    http: bool,
    hooks: bool,
    remove: bool,
    project_only: bool,
) -> None:
    """Show how each agent launches Moraine (`moraine mcp`), or write it into their configuration files."""
    if (remove or project_only) and not hooks:
        raise click.UsageError("--remove and --project-only apply to hooks: add --hooks")
    if remove:
        _hooks(clients, every, (project_dir or Path.cwd()) if project else None, project_only, True, True)
        return
    target = _http_target(ctx) if http else None
    configs = client_configs(project_dir=(project_dir or Path.cwd()) if project else None, http=target)
    chosen = [c for c in configs if c.client in clients or (not clients and (every or c.present))]
    if not chosen:
        raise click.ClickException(
            "no MCP client found on this machine; name one with --client (one of: "
            f"{', '.join(client_names())}) or use --all"
        )
    failed = False
    for config in chosen:
        _show(config)
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
    others = [c.client for c in configs if c not in chosen and not c.present]
    if others and not clients and not every:
        click.echo(f"# not found on this machine (add with --client NAME or --all): {', '.join(others)}")
    if target is not None:
        click.echo("# the secret is shown masked; --write puts the real one in each file (user-only)")
    if hooks:
        failed = (
            not _hooks(
                clients, every, (project_dir or Path.cwd()) if project else None, project_only, False, write
            )
            or failed
        )
    if failed:
        raise click.ClickException("some client configurations were not written (see above)")


def _hooks(
    clients: tuple[str, ...],
    every: bool,
    project_dir: Path | None,
    project_only: bool,
    remove: bool,
    write: bool,
) -> bool:
    """Show, write or remove the hook entries of the chosen agents with hooks; return False when a file failed."""
    configs = hook_configs(project_dir=project_dir, project_only=project_only)
    chosen = [c for c in configs if c.client in clients or (not clients and (every or c.present))]
    if not chosen:
        named = f" among {', '.join(clients)}" if clients else " on this machine"
        click.echo(f"# no agent with command hooks{named} (they are: {', '.join(hook_client_names())})")
        return True
    ok = True
    for config in chosen:
        hint = f"; {config.hint}" if config.hint else ""
        if not remove:
            click.echo(f"# {config.display_name} hooks ({config.client}): {config.path}{hint}")
            click.echo(config.text)
        if not write:
            continue
        try:
            backup = remove_hooks(config) if remove else write_hooks(config)
        except (SetupError, OSError) as exc:
            click.echo(f"# not written: {exc}", err=True)
            ok = False
            continue
        saved = f" (previous file saved as {backup})" if backup else ""
        done = "removed Moraine's hooks from" if remove else "wrote hooks to"
        click.echo(
            f"# {done} {config.path}{saved}"
            if backup or not remove
            else f"# no Moraine hooks in {config.path}"
        )
    return ok


def _show(config: ClientConfig) -> None:
    hint = f"; {config.hint}" if config.hint else ""
    click.echo(f"# {config.display_name} ({config.client}): {config.path}{hint}")
    click.echo(config.shown)


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
