"""``moraine search``, ``open``, ``sessions``, ``files``, ``export``: the four tools from a terminal.

Each command builds the tool's arguments from its options, makes one call (through the daemon when it runs, else
on the store: ``moraine.daemon.calls``) and prints the envelope as tables (``render``) or, with ``--json``, exactly
as MCP returns it. An error envelope exits with status 1 and its message.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from generated.descriptors import DESCRIPTORS
from moraine.cli.context import command_config
from moraine.cli.when import ALL_TIME, iso, window_end, window_options, window_start
from moraine.config import HARNESSES, Config
from moraine.export.formats import FORMATS

if TYPE_CHECKING:
    from moraine.server.service import ToolReply

__all__ = ["export", "files", "open_command", "search", "sessions"]

_F = TypeVar("_F", bound=Callable[..., Any])
OPEN_LIMIT = 20  # turns (session) or events (turn) `moraine open` lists when no --limit is given


def _choices(tool: str, definition: str) -> list[str]:
    """Return the values the tool's input schema allows for one of its enums (the spec is their one source)."""
    values: list[str] = DESCRIPTORS[tool]["inputSchema"]["$defs"][definition]["enum"]
    return values


def _json_option(command: _F) -> _F:
    return click.option(
        "--json",
        "as_json",
        is_flag=True,
        help="Print the tool's envelope as JSON, exactly as MCP returns it.",
    )(command)


def _known_harness(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse a harness no registered harness has (``moraine.config.HARNESSES``), naming those that exist."""
    if value is not None and value not in HARNESSES:
        raise click.BadParameter(f"no harness is called {value!r}; the harnesses are: {', '.join(HARNESSES)}")
    return value


def _filter_options(command: _F) -> _F:
    command = click.option("--source", default=None, help="Only this configured ingest source.")(command)
    return click.option(
        "--harness",
        default=None,
        callback=_known_harness,
        help="Only this harness, e.g. codex or claude-code.",
    )(command)


async def _call_once(config: Config, tool: str, arguments: dict[str, Any]) -> ToolReply:
    from moraine.daemon.calls import open_tool_call

    async with open_tool_call(config) as call:
        return await call(tool, arguments)


def _call(ctx: click.Context, tool: str, arguments: dict[str, Any]) -> ToolReply:
    """Make one tool call (through the daemon when it runs, else on the store)."""
    # Loaded per command: the handlers, models and store are heavy for `moraine --help`.
    import anyio

    from moraine.daemon.client import DaemonUnreachable
    from moraine.errors import StoreError

    config = command_config(ctx)
    try:
        return anyio.run(_call_once, config, tool, {k: v for k, v in arguments.items() if v is not None})
    except (StoreError, DaemonUnreachable) as exc:
        raise click.ClickException(str(exc)) from exc


def _run(ctx: click.Context, tool: str, arguments: dict[str, Any], as_json: bool) -> dict[str, Any]:
    """Call ``tool``, print its envelope and return it; an error envelope exits with status 1 and its message."""
    from rich.console import Console

    from moraine.cli.render import RENDERERS, render_warnings

    reply = _call(ctx, tool, arguments)
    envelope = reply.envelope
    if as_json:
        click.echo(json.dumps(envelope, indent=2, ensure_ascii=False))
    if reply.is_error:
        raise click.ClickException(f"{envelope['error']['code']}: {envelope['error']['message']}")
    if not as_json:
        console = Console(width=None if Console().is_terminal else 160)
        render_warnings(console, envelope["warnings"])
        RENDERERS[tool](console, envelope)
    return envelope


def _now() -> datetime:
    return datetime.now(UTC)


@click.command("search")
@click.argument("query")
@click.option("--within", default=None, metavar="ID", help="Search only inside this session or turn.")
@click.option(
    "--type",
    "event_types",
    multiple=True,
    type=click.Choice(_choices("search_sessions", "SearchableEventType")),
    help="Event type to search (repeatable; default user_input and assistant_response).",
)
@_filter_options
@click.option(
    "--n-hits", type=click.IntRange(1, 50), default=None, help="How many hits, 1 to 50 (default 10)."
)
@_json_option
@click.pass_context
def search(
    ctx: click.Context,
    query: str,
    within: str | None,
    event_types: tuple[str, ...],
    harness: str | None,
    source: str | None,
    n_hits: int | None,
    as_json: bool,
) -> None:
    """Search every indexed session for QUERY (the search_sessions tool): ranked hits with the IDs to open."""
    arguments = {
        "query": query,
        "within_id": within,
        "event_types": list(event_types) or None,
        "harness": harness,
        "source": source,
        "n_hits": n_hits,
    }
    _run(ctx, "search_sessions", arguments, as_json)


@click.command("open")
@click.argument("target_id", metavar="[ID]", required=False)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help=f"How many turns (session) or events (turn) to list (default {OPEN_LIMIT}).",
)
@click.option("--cursor", default=None, help="Next page: the cursor a previous page printed (pass it alone).")
@_json_option
@click.pass_context
def open_command(
    ctx: click.Context, target_id: str | None, limit: int | None, cursor: str | None, as_json: bool
) -> None:
    """Open a session, turn or event ID (the open tool): its first turns or events; page on with --cursor."""
    if limit is None and cursor is None and target_id is not None and _lists_children(target_id):
        limit = OPEN_LIMIT
    _run(ctx, "open", {"id": target_id, "limit": limit, "cursor": cursor}, as_json)


def _lists_children(target_id: str) -> bool:
    """Whether ``open`` of this ID takes a limit: anything but an event (a harness's own ID opens a session)."""
    from moraine import ids

    try:
        return not isinstance(ids.parse_id(target_id), ids.EventId)
    except ids.InvalidIdError:
        return True


@click.command("sessions")
@window_options("any time, as on the web page")
@_filter_options
@click.option(
    "--mode",
    type=click.Choice(_choices("list_sessions", "SessionMode")),
    default=None,
    help="Only this mode.",
)
@click.option(
    "--sort",
    type=click.Choice(_choices("list_sessions", "ListSort")),
    default=None,
    help="By last update (default desc).",
)
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Page size (default 20).")
@click.option("--cursor", default=None, help="Next page (repeat the same window and filters).")
@_json_option
@click.pass_context
def sessions(
    ctx: click.Context,
    since: str | None,
    until: str | None,
    harness: str | None,
    source: str | None,
    mode: str | None,
    sort: str | None,
    limit: int | None,
    cursor: str | None,
    as_json: bool,
) -> None:
    """List sessions active in a time window (the list_sessions tool; default any time), most recent first."""
    now = _now()
    arguments = {
        "start_datetime": window_start(since, now) if since else ALL_TIME,
        "end_datetime": window_end(until, now) if until else iso(now),
        "harness": harness,
        "source": source,
        "mode": mode,
        "sort": sort,
        "limit": limit,
        "cursor": cursor,
    }
    envelope = _run(ctx, "list_sessions", arguments, as_json)
    if not as_json and not envelope["data"]["sessions"] and cursor is None:
        click.echo(_history(ctx, arguments, now))


def _history(ctx: click.Context, arguments: dict[str, Any], now: datetime) -> str:
    """Say how much history the same filters find at any time, and how to widen the window to it."""
    whole = {**arguments, "start_datetime": ALL_TIME, "end_datetime": iso(now), "limit": 1, "cursor": None}
    ends = []
    for order in ("asc", "desc"):
        reply = _call(ctx, "list_sessions", {**whole, "sort": order})
        rows = [] if reply.is_error else reply.envelope["data"]["sessions"]
        ends.append(rows[0]["session"]["updated_at"] if rows else None)
    oldest, newest = ends
    if oldest is None or newest is None:
        return "Nothing is indexed for these filters yet: `moraine status` shows what each source has found."
    return (
        f"The index holds sessions from {oldest[:10]} to {newest[:10]}: widen the window with "
        f"--since {oldest[:7]} (or leave --since out for any time)."
    )


@click.command("files")
@click.argument("path")
@click.option(
    "--scope",
    type=click.Choice(_choices("file_attention", "FileAttentionScope")),
    default=None,
    help="project (default: the current directory's project) or all.",
)
@click.option(
    "--granularity",
    type=click.Choice(_choices("file_attention", "FileAttentionGranularity")),
    default=None,
    help="sessions (default: one row per session) or events (every touch).",
)
@click.option(
    "--since", default=None, help="Only touches from then on: a duration (7d), date, month or RFC 3339."
)
@click.option("--until", default=None, help="Only touches before then, same forms.")
@click.option("--tool", default=None, help="Only touches by this tool name.")
@_filter_options
@click.option(
    "--mutations-only", is_flag=True, default=None, help="Leave out pure reads (Read, cat, grep...)."
)
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Rows to show (default 50).")
@_json_option
@click.pass_context
def files(
    ctx: click.Context,
    path: str,
    scope: str | None,
    granularity: str | None,
    since: str | None,
    until: str | None,
    tool: str | None,
    harness: str | None,
    source: str | None,
    mutations_only: bool | None,
    limit: int | None,
    as_json: bool,
) -> None:
    """Show which sessions read or changed PATH (the file_attention tool), relative to the current directory."""
    now = _now()
    arguments = {
        "path": path,
        "scope": scope,
        "granularity": granularity,
        "start_datetime": window_start(since, now) if since else None,
        "end_datetime": window_end(until, now) if until else None,
        "tool": tool,
        "harness": harness,
        "source": source,
        "mutations_only": mutations_only or None,
        "limit": limit,
    }
    _run(ctx, "file_attention", arguments, as_json)


async def _export_once(config: Config, target_id: str, document_format: str) -> str:
    from moraine.daemon.calls import open_tool_call
    from moraine.export.document import export_document

    async with open_tool_call(config) as call:
        return await export_document(call, target_id, document_format, config.max_results)


@click.command("export")
@click.argument("target_id", metavar="ID")
@click.option(
    "--format",
    "document_format",
    type=click.Choice(FORMATS),
    default="md",
    show_default=True,
    help="Document format.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write here (default: stdout).",
)
@click.pass_context
def export(ctx: click.Context, target_id: str, document_format: str, output: str | None) -> None:
    """Write a session or turn as a readable transcript: user and assistant messages, tool calls folded."""
    import anyio

    from moraine.daemon.client import DaemonUnreachable
    from moraine.errors import StoreError
    from moraine.export.walk import ExportError

    config = command_config(ctx)
    try:
        document = anyio.run(_export_once, config, target_id, document_format)
    except ExportError as exc:
        raise click.ClickException(exc.message) from exc
    except (StoreError, DaemonUnreachable) as exc:
        raise click.ClickException(str(exc)) from exc
    if output is None:
        click.echo(document, nl=False)
        return
    Path(output).write_text(document, encoding="utf-8")
    click.echo(f"wrote {output}", err=True)
