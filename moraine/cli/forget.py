"""``moraine forget``: remove sessions from the index for good, so they are neither searchable nor read again."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from moraine.config import Config, load_config
from moraine.daemon.client import DaemonUnreachable, forget_via_daemon
from moraine.daemon.launcher import live_state
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.writer_lock import StoreBusy, StoreWriterLock
from moraine.errors import ConfigError, StoreError
from moraine.ingest.forget_request import criteria_json, parse_forget_request, target_json
from moraine.ingest.forgetting import forget_sessions
from moraine.private_files import secure_home
from moraine.projects.projects import session_project
from moraine.store.client import Store
from moraine.store.forget import find_sessions

__all__ = ["forget"]

_SHOWN = 20  # sessions listed before asking


@click.command("forget")
@click.argument("ids", nargs=-1)
@click.option("--path", "trace", type=click.Path(path_type=Path), help="Every session of this trace file.")
@click.option("--harness", help="Only sessions of this harness (e.g. codex, claude-code).")
@click.option(
    "--before",
    type=click.DateTime(formats=["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S"]),
    help="Only sessions last active before this date (UTC).",
)
@click.option(
    "--project", "project", type=click.Path(path_type=Path), help="Only sessions of this project directory."
)
@click.option("--yes", is_flag=True, help="Do not ask before forgetting more than one session.")
@click.pass_context
def forget(
    ctx: click.Context,
    ids: tuple[str, ...],
    trace: Path | None,
    harness: str | None,
    before: datetime | None,
    project: Path | None,
    yes: bool,
) -> None:
    """Forget sessions: IDS (session IDs; a turn or event ID names its session; or a harness's own session ID),
    narrowed by every option given. Their events, turns, search postings, vectors, file touches and the saved
    state of their trace files are removed from the store's files on disk, and they stay forgotten when their
    trace files are read again or grow (`moraine status` counts them). Asks before forgetting more than one session.

    Refused while `moraine ingest` writes to the store; with the daemon running, the daemon does it."""
    raw_config = (ctx.obj or {}).get("config_path")
    projects = []
    if project is not None:
        directory = str(project.expanduser().absolute())
        projects = [session_project(directory) or directory]
    criteria = criteria_json(
        list(ids),
        str(trace.expanduser().absolute()) if trace is not None else None,
        harness,
        before.replace(tzinfo=UTC) if before is not None else None,
        projects,
    )
    try:
        request = parse_forget_request({"criteria": criteria})
        config = load_config(Path(raw_config) if raw_config else None)
    except (ValueError, ConfigError) as exc:
        raise click.ClickException(str(exc)) from exc
    if request.criteria.empty():
        raise click.UsageError("name the sessions to forget: IDS, --path, --harness, --before or --project")
    state = live_state(DaemonPaths(config.home))
    if state is not None:
        _through_daemon(Path(state.socket), criteria, yes)
    else:
        _directly(config, criteria, yes)


def _confirm(sessions: list[dict[str, Any]], yes: bool) -> bool:
    """Show the selection; return whether to go on (asking when it holds more than one session)."""
    if not sessions:
        click.echo("no indexed session matches: nothing to forget")
        return False
    for session in sessions[:_SHOWN]:
        title = session["title"] or "(untitled)"
        click.echo(
            f"{session['id']}  {session['harness']}  {session['updated_at'] or '-'}  {title[:60]}  {session['path']}"
        )
    if len(sessions) > _SHOWN:
        click.echo(f"... and {len(sessions) - _SHOWN} more")
    if len(sessions) > 1 and not yes:
        click.confirm(f"Forget these {len(sessions)} sessions for good?", abort=True)
    return True


def _through_daemon(socket: Path, criteria: dict[str, Any], yes: bool) -> None:
    try:
        preview = forget_via_daemon(socket, {"criteria": criteria})
        if not _confirm(preview["sessions"], yes):
            return
        click.echo("forgetting (the store's old copies are removed from disk within about a minute)...")
        done = forget_via_daemon(socket, {"criteria": criteria, "expect": len(preview["sessions"])})
    except DaemonUnreachable as exc:
        raise click.ClickException(str(exc)) from exc
    _report(len(preview["sessions"]), int(done.get("parts_left", 0)))


def _directly(config: Config, criteria: dict[str, Any], yes: bool) -> None:
    secure_home(config)
    writer = StoreWriterLock(DaemonPaths(config.home).run_dir, config.store_dsn, config.database)
    try:
        writer.acquire("forget")  # refused while `moraine ingest` (or a daemon starting now) writes to it
    except StoreBusy as exc:
        raise click.ClickException(str(exc)) from exc
    try:
        store = Store.open(config.store_dsn, config.database, limits=config.store_limits)
        try:
            targets = find_sessions(store, parse_forget_request({"criteria": criteria}).criteria)
            if not _confirm([target_json(t) for t in targets], yes):
                return
            click.echo("forgetting (the store's old copies are removed from disk within about a minute)...")
            result = forget_sessions(store, targets, home=config.home)
        finally:
            store.close()
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        writer.release()
    _report(result.sessions, result.parts_left)


def _report(sessions: int, parts_left: int) -> None:
    click.echo(f"forgot {sessions} session(s)")
    if parts_left:
        click.echo(
            f"{parts_left} replaced part(s) of the store are still on disk; ClickHouse removes them shortly",
            err=True,
        )
