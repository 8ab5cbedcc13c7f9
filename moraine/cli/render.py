"""Print tool envelopes for people: one table or panel per result, with the IDs to open next.

Each function takes a success envelope and parses its ``data`` into the generated model, so a field renamed in ``spec/``
fails here at type-check time, not silently at run time.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from generated.models import (
    FileAttentionData,
    ListSessionsData,
    OpenData,
    OpenEventData,
    OpenSessionData,
    OpenTurnData,
    SearchSessionsData,
)
from moraine.store.reads.settled import IN_PROGRESS

__all__ = ["RENDERERS", "render_warnings"]


_LIST_FILTERS = ("harness", "source", "mode", "sort", "limit")


def _one_line(text: str, width: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _when(stamp: str | None) -> str:
    """Return ``2026-04-29 18:41`` for a contract timestamp (UTC), ``-`` when unknown."""
    return stamp[:16].replace("T", " ") if stamp else "-"


def _title(title: str | None, harness: str) -> str:
    return title or f"Untitled {harness} session"


def render_warnings(console: Console, warnings: list[str]) -> None:
    """Print the envelope's warnings (freshness, truncation) before its results."""
    for warning in warnings:
        console.print(f"[yellow]warning:[/yellow] {escape(warning)}")


def _search(console: Console, envelope: dict[str, Any]) -> None:
    raw = envelope["data"]
    data = SearchSessionsData.model_validate(raw)
    if not data.results:
        console.print("No hits.")
        return
    table = Table("#", "when", "type", "session", "snippet", "open", show_lines=True)
    for hit in data.results:
        session = hit.session
        table.add_row(
            str(hit.rank),
            _when(hit.event.timestamp),
            hit.event.type.value,
            escape(f"{_title(session.title, session.harness)} ({session.harness})"),
            escape(_one_line(hit.snippet.text, 240)),
            escape(
                f"{hit.open.event_id.root}\nturn {hit.turn.ordinal}: {hit.open.turn_id.root}"
                f"\nsession: {hit.open.session_id.root}"
            ),
        )
    console.print(table)
    more = " (more may exist: narrow the query or raise --n-hits)" if data.truncated else ""
    console.print(f"{data.result_count} hit(s){more}")


def _open_session(console: Console, data: OpenSessionData) -> None:
    session = data.session
    console.print(f"[bold]{escape(_title(session.title, session.harness))}[/bold]")
    console.print(
        f"{session.id.root} · {session.harness} (source {escape(session.source)}) · "
        f"{session.turn_count} turns, {session.event_count} events · {_when(session.started_at)} → "
        f"{_when(session.updated_at)}{'' if session.completed else f' · {IN_PROGRESS}'}"
    )
    if session.resume_command:
        console.print(f"resume: {escape(session.resume_command)}", soft_wrap=True)
    if data.turns:
        table = Table("turn", "started", "user", "final response", "tools", "id")
        for turn in data.turns:
            table.add_row(
                str(turn.ordinal),
                _when(turn.started_at),
                escape(_one_line(turn.user_input.text, 100)) if turn.user_input else "-",
                escape(_one_line(turn.final_response.text, 100)) if turn.final_response else "-",
                escape(", ".join(turn.tools_called)),
                turn.id.root,
            )
        console.print(table)
    _next(console, data.next_cursor)


def _open_turn(console: Console, data: OpenTurnData) -> None:
    turn, session = data.turn, data.session
    console.print(
        f"[bold]Turn {turn.ordinal}[/bold] of {escape(_title(session.title, session.harness))} "
        f"({session.id.root})"
    )
    console.print(
        f"{turn.id.root} · {turn.event_count} events · {_when(turn.started_at)} → {_when(turn.updated_at)}"
        f"{'' if turn.completed else f' · {IN_PROGRESS}'}"
    )
    for label, excerpt in (("user", data.summary.user_input), ("final", data.summary.final_response)):
        if excerpt is not None:
            console.print(f"{label}: {escape(_one_line(excerpt.text))}")
    if data.events:
        table = Table("#", "when", "type", "tool", "summary", "id")
        for event in data.events:
            table.add_row(
                str(event.ordinal),
                _when(event.timestamp),
                event.type.value,
                escape(event.tool_name or ""),
                escape(_one_line(event.summary, 120)),
                event.id.root,
            )
        console.print(table)
    _next(console, data.next_cursor)


def _open_event(console: Console, data: OpenEventData) -> None:
    event, session = data.event, data.session
    tool = f" {event.tool_name}" if event.tool_name else ""
    console.print(
        f"[bold]{event.type.value}{escape(tool)}[/bold] · event {event.ordinal} of turn {data.turn.ordinal} · "
        f"{_when(event.timestamp)}"
    )
    console.print(
        f"{escape(_title(session.title, session.harness))} ({session.id.root}) · turn {event.turn_id.root}"
    )
    if data.content.exit_code is not None:
        console.print(f"exit code {data.content.exit_code}")
    console.print()
    console.print(escape(data.content.text), soft_wrap=True)
    links = data.traversal
    for label, target in (("previous", links.previous_event_id), ("next", links.next_event_id)):
        if target is not None:
            console.print(f"{label}: {target.root}")


def _open(console: Console, envelope: dict[str, Any]) -> None:
    data = OpenData.model_validate(envelope["data"]).root
    if isinstance(data, OpenSessionData):
        _open_session(console, data)
    elif isinstance(data, OpenTurnData):
        _open_turn(console, data)
    else:
        _open_event(console, data)


def _next(console: Console, cursor: str | None) -> None:
    if cursor is not None:
        console.print(f"next page: moraine open --cursor {cursor}", soft_wrap=True)


def _sessions(console: Console, envelope: dict[str, Any]) -> None:
    data = ListSessionsData.model_validate(envelope["data"])
    if not data.sessions:
        request = envelope["request"]
        console.print(f"No sessions between {request['start_datetime']} and {request['end_datetime']}.")
        return
    table = Table("updated", "harness", "source", "turns", "events", "session", "id")
    for row in data.sessions:
        session = row.session
        table.add_row(
            _when(session.updated_at),
            session.harness,
            escape(session.source),
            str(session.turn_count),
            str(session.event_count),
            escape(_one_line(session.display_label, 80)),
            session.id.root,
        )
    console.print(table)
    if data.next_cursor is not None:  # a cursor is bound to the window and filters: repeat them exactly
        request = envelope["request"]
        again = [f"--since {request['start_datetime']}", f"--until {request['end_datetime']}"]
        again += [f"--{key} {shlex.quote(str(request[key]))}" for key in _LIST_FILTERS if request.get(key)]
        console.print(
            f"next page: moraine sessions {' '.join(again)} --cursor {data.next_cursor}", soft_wrap=True
        )


def _files(console: Console, envelope: dict[str, Any]) -> None:
    raw = envelope["data"]
    data = FileAttentionData.model_validate(raw)
    summary = data.summary
    console.print(
        f"[bold]{escape(data.path)}[/bold] ({data.scope.value}): {summary.total_touches} touch(es) in "
        f"{summary.distinct_sessions} session(s), {_when(summary.first_touch)} → {_when(summary.last_touch)}"
    )
    if data.sessions is not None:
        table = Table("#", "last touch", "touches", "tools", "harness", "session")
        for row in data.sessions:
            rollup = row.session
            table.add_row(
                str(row.rank),
                _when(rollup.last_touch),
                str(rollup.touch_count),
                escape(", ".join(rollup.tools)),
                rollup.harness,
                rollup.id.root,
            )
        console.print(table)
    if data.events is not None:
        table = Table("#", "when", "tool", "harness", "action", "event")
        for event_row in data.events:
            touch = event_row.event
            table.add_row(
                str(event_row.rank),
                _when(touch.timestamp),
                escape(touch.tool_name),
                touch.harness,
                escape(_one_line(touch.action_preview or "", 80)),
                event_row.open.event_id.root,
            )
        console.print(table)
    if data.truncated:
        console.print(f"showing {data.result_count}: raise --limit or narrow the filters to see the rest")


# The table printer of each tool's success data.
RENDERERS: dict[str, Callable[[Console, dict[str, Any]], None]] = {
    "search_sessions": _search,
    "open": _open,
    "list_sessions": _sessions,
    "file_attention": _files,
}
