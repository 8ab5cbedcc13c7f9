"""``moraine search``, ``open``, ``sessions``, ``files``, ``export``: the four tools from a terminal.

Each command builds the tool's arguments from its options, makes one call (through the daemon when it runs, else
on the store: ``moraine.daemon.calls``) and prints the envelope as tables (``render``) or, with ``--json``, exactly
as MCP returns it. An error envelope exits with status 1 and its message.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from generated.descriptors import DESCRIPTORS
from moraine.config import Config, load_config
from moraine.errors import ConfigError
from moraine.export.formats import FORMATS

if TYPE_CHECKING:
    from moraine.server.service import ToolReply

__all__ = ["export", "files", "open_command", "search", "sessions"]

_F = TypeVar("_F", bound=Callable[..., Any])
_DURATION = re.compile(r"^(\d+)([mhdw])$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


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


def _filter_options(command: _F) -> _F:
    command = click.option("--source", default=None, help="Only this configured ingest source.")(command)
    return click.option("--harness", default=None, help="Only this harness, e.g. codex or claude-code.")(
        command
    )


def _config(ctx: click.Context) -> Config:
    raw = (ctx.obj or {}).get("config_path")
    try:
        return load_config(Path(raw) if raw else None)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from exc


async def _call_once(config: Config, tool: str, arguments: dict[str, Any]) -> ToolReply:
    from moraine.daemon.calls import open_tool_call

    async with open_tool_call(config) as call:
        return await call(tool, arguments)


def _run(ctx: click.Context, tool: str, arguments: dict[str, Any], as_json: bool) -> None:
    """Call ``tool`` and print its envelope; an error envelope exits with status 1 and its message."""
    # Loaded per command: the handlers, models and store are heavy for `moraine --help`.
    import anyio
    from rich.console import Console

    from moraine.cli.render import RENDERERS, render_warnings
    from moraine.daemon.client import DaemonUnreachable
    from moraine.errors import StoreError

    config = _config(ctx)
    try:
        reply = anyio.run(_call_once, config, tool, {k: v for k, v in arguments.items() if v is not None})
    except (StoreError, DaemonUnreachable) as exc:
        raise click.ClickException(str(exc)) from exc
    envelope = reply.envelope
    if as_json:
        click.echo(json.dumps(envelope, indent=2, ensure_ascii=False))
    if reply.is_error:
        raise click.ClickException(f"{envelope['error']['code']}: {envelope['error']['message']}")
    if not as_json:
        console = Console(width=None if Console().is_terminal else 160)
        render_warnings(console, envelope["warnings"])
        RENDERERS[tool](console, envelope)


def _moment(text: str | None, now: datetime) -> str | None:
    """Return an RFC 3339 time from ``text``: itself when it is one, or ``now`` minus a duration like ``7d``.

    Raises:
        click.BadParameter: neither form.
    """
    if text is None:
        return None
    found = _DURATION.match(text.strip())
    if found:
        moment = now - timedelta(**{_UNITS[found.group(2)]: int(found.group(1))})
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    try:
        parsed = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise click.BadParameter(
            f"{text!r} is neither an RFC 3339 time with an offset (2026-04-30T09:00:00Z) nor a duration "
            "such as 90m, 24h, 7d or 2w"
        )
    return text.strip()


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
    help="Also list this many turns (session) or events (turn).",
)
@click.option("--cursor", default=None, help="Next page: the cursor a previous page printed (pass it alone).")
@_json_option
@click.pass_context
def open_command(
    ctx: click.Context, target_id: str | None, limit: int | None, cursor: str | None, as_json: bool
) -> None:
    """Open a session, turn or event ID (the open tool); page with --limit, then --cursor."""
    _run(ctx, "open", {"id": target_id, "limit": limit, "cursor": cursor}, as_json)


@click.command("sessions")
@click.option(
    "--since",
    "--start",
    "since",
    default="7d",
    show_default=True,
    help="Start of the window: an RFC 3339 time or a duration back from now (90m, 24h, 7d, 2w).",
)
@click.option("--until", "--end", "until", default=None, help="End of the window (default: now), same forms.")
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
    since: str,
    until: str | None,
    harness: str | None,
    source: str | None,
    mode: str | None,
    sort: str | None,
    limit: int | None,
    cursor: str | None,
    as_json: bool,
) -> None:
    """List sessions updated in a time window (the list_sessions tool), most recent first."""
    now = _now()
    arguments = {
        "start_datetime": _moment(since, now),
        "end_datetime": _moment(until, now) or now.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "harness": harness,
        "source": source,
        "mode": mode,
        "sort": sort,
        "limit": limit,
        "cursor": cursor,
    }
    _run(ctx, "list_sessions", arguments, as_json)


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
@click.option("--since", default=None, help="Only touches from then on: RFC 3339 or a duration (7d).")
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
        "start_datetime": _moment(since, now),
        "end_datetime": _moment(until, now),
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

    config = _config(ctx)
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
