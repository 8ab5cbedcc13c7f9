"""file_attention: which sessions touched a file, across checkouts and worktrees, and where to drill in."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TypedDict

from generated.models import (
    FileAttentionData,
    FileAttentionEventOpen,
    FileAttentionEventRow,
    FileAttentionGranularityModel,
    FileAttentionRoot,
    FileAttentionScopeModel,
    FileAttentionSessionOpen,
    FileAttentionSessionRollup,
    FileAttentionSessionRow,
    FileAttentionSummary,
    FileAttentionTouch,
)
from handlers.harness_filter import harness_warnings
from handlers.requests.file_attention import ParsedAttention
from handlers.shapes import as_event_id, as_session_id, as_turn_id
from moraine.handler_api import Deps, Outcome
from moraine.attention.lookup import QueryPath, launch_project, reduce_path
from moraine.attention.project import ProjectResolver
from moraine.store.reads.floor import ProjectFloor
from moraine.store.client import Store
from moraine.store.reads.attention import (
    SCAN_CAP,
    UNKNOWN_ROOT,
    TouchFilter,
    TouchStats,
    count_touches,
    joined_turns,
    touch_events,
    touch_sessions,
    touch_stats,
)
from moraine.store.reads.timestamps import format_timestamp

__all__ = ["AttentionResult", "file_attention_data", "handle"]


@dataclass(slots=True)
class AttentionResult:
    """The ``data`` object of a file_attention response and the warnings that go beside it."""

    data: FileAttentionData
    warnings: list[str] = field(default_factory=list)


class _Head(TypedDict):
    """The fields every answer starts with: the path as asked and as matched, and the request's modes."""

    path: str
    tail: str
    tail_is_absolute: bool
    stripped_root: str | None
    scope: FileAttentionScopeModel
    granularity: FileAttentionGranularityModel


class _Rows(TypedDict, total=False):
    """The answer's rows: ``events`` or ``sessions`` by its granularity (the other is left out)."""

    events: list[FileAttentionEventRow]
    sessions: list[FileAttentionSessionRow]


def file_attention_data(
    store: Store,
    request: ParsedAttention,
    *,
    launch_dir: str | None,
    resolver: ProjectResolver | None = None,
    scan_cap: int = SCAN_CAP,
    floor: ProjectFloor | None = None,
) -> AttentionResult:
    """Return the data and warnings of a file_attention response for a parsed request.

    ``launch_dir`` is the MCP client's launch directory (the server's when the client reports none).
    """
    path, scope, granularity, limit = request.path, request.scope, request.granularity, request.limit
    projects = resolver or ProjectResolver()
    query = reduce_path(path, launch_dir, projects)
    warnings = _path_warnings(path, query, launch_dir)
    head = _Head(
        path=path,
        tail=query.tail,
        tail_is_absolute=query.tail_is_absolute,
        stripped_root=query.stripped_root,
        scope=FileAttentionScopeModel(scope),
        granularity=FileAttentionGranularityModel(granularity),
    )
    project_id: str | None = None
    if scope == "project":
        project_id = launch_project(launch_dir, projects)
        if project_id is None:
            warnings.append(
                "scope=project: the launch project could not be established (no existing launch directory is "
                "known), so no touches are returned; use scope=all to search every project"
            )
            return AttentionResult(_empty(head, limit), warnings)
    touch_filter = TouchFilter(
        tail=query.tail,
        tail_is_absolute=query.tail_is_absolute,
        project_id=project_id,
        start=request.start,
        end=request.end,
        tool=request.tool,
        harness=request.harness,
        source=request.source,
        mutations_only=request.mutations_only,
        floor=floor,
    )
    stats = touch_stats(store, touch_filter, scan_cap)
    warnings.extend(_stat_warnings(query, stats, scan_cap))
    if project_id is not None:
        outside = count_touches(store, replace(touch_filter, project_id=""), scan_cap)
        if outside:
            warnings.append(
                f"{outside} touch(es) of {query.tail} have no provable project (unknown root) and are left out by "
                "scope=project rather than guessed; scope=all lists them under (unknown)"
            )
    if not any(bucket.root is None for bucket in stats.roots):
        touch_filter = replace(
            touch_filter, exact_only=True
        )  # every match has a known root: no suffix lookup
    rows: _Rows
    if granularity == "events":
        events = _event_rows(store, touch_filter, limit)
        rows, count = {"events": events}, len(events)
        hidden = min(stats.total_touches, scan_cap) > count
    else:
        sessions = _session_rows(store, touch_filter, limit, scan_cap if stats.scan_truncated else None)
        rows, count = {"sessions": sessions}, len(sessions)
        hidden = stats.distinct_sessions > count
    data = FileAttentionData(
        **head,
        summary=_summary(stats),
        roots=_roots(stats),
        result_count=count,
        limit=limit,
        truncated=hidden or stats.scan_truncated,
        **rows,
    )
    return AttentionResult(data, warnings)


def _empty(head: _Head, limit: int) -> FileAttentionData:
    summary = FileAttentionSummary(
        total_touches=0,
        distinct_sessions=0,
        distinct_roots=0,
        distinct_known_roots=0,
        unknown_root_touches=0,
        first_touch=None,
        last_touch=None,
        ambiguous=False,
        scan_truncated=False,
    )
    rows: _Rows = (
        {"events": []} if head["granularity"] is FileAttentionGranularityModel.events else {"sessions": []}
    )
    return FileAttentionData(
        **head, summary=summary, roots=[], result_count=0, limit=limit, truncated=False, **rows
    )


def _summary(stats: TouchStats) -> FileAttentionSummary:
    known = [bucket for bucket in stats.roots if bucket.root is not None]
    unknown = sum(bucket.touch_count for bucket in stats.roots if bucket.root is None)
    return FileAttentionSummary(
        total_touches=stats.total_touches,
        distinct_sessions=stats.distinct_sessions,
        distinct_roots=len(stats.roots),
        distinct_known_roots=len(known),
        unknown_root_touches=unknown,
        first_touch=format_timestamp(stats.first_touch),
        last_touch=format_timestamp(stats.last_touch),
        ambiguous=len(stats.roots) > 1 or (unknown > 0 and stats.total_touches > 1),
        scan_truncated=stats.scan_truncated,
    )


def _roots(stats: TouchStats) -> list[FileAttentionRoot]:
    return [
        FileAttentionRoot(
            root=bucket.root or UNKNOWN_ROOT,
            touch_count=bucket.touch_count,
            session_count=bucket.session_count,
        )
        for bucket in stats.roots
    ]


def _path_warnings(path: str, query: QueryPath, launch_dir: str | None) -> list[str]:
    warnings: list[str] = []
    if query.tail_is_absolute:
        warnings.append(
            f"{path} lies outside every Git repository and the launch directory, so no project root could be "
            "stripped: it is matched as an absolute path"
        )
    elif query.stripped_root is None and launch_dir is None:
        warnings.append("no launch directory is known: the relative path is matched as a tail as written")
    segments = [part for part in query.tail.split("/") if part]
    if not query.tail_is_absolute and len(segments) < 2:
        warnings.append(
            f"tail {query.tail!r} has a single path segment: files of that name at the root of other checkouts "
            "or directories match too"
        )
    return warnings


def _stat_warnings(query: QueryPath, stats: TouchStats, scan_cap: int) -> list[str]:
    warnings: list[str] = []
    unknown = sum(bucket.touch_count for bucket in stats.roots if bucket.root is None)
    if unknown:
        warnings.append(
            f"{unknown} touch(es) of {query.tail} have no provable worktree root (listed under {UNKNOWN_ROOT}); "
            "they may be another checkout's copy of the file"
        )
    if stats.scan_truncated:
        warnings.append(
            f"more than {scan_cap} touches matched: the summary and rows cover the {scan_cap} most recent ones"
        )
    return warnings


def _event_rows(store: Store, touch_filter: TouchFilter, limit: int) -> list[FileAttentionEventRow]:
    rows = touch_events(store, touch_filter, limit)
    joined = joined_turns(store, [(row.session_key, row.turn_seq) for row in rows])
    out: list[FileAttentionEventRow] = []
    for rank, row in enumerate(rows, start=1):
        eid = as_event_id(row.session_key, row.seq)
        sid = as_session_id(row.session_key)
        in_trace = (row.session_key, row.turn_seq) in joined
        opened = FileAttentionEventOpen(event_id=eid, session_id=sid)
        if in_trace:  # set only then (an assigned field counts as set, so it is in the response)
            opened.turn_id = as_turn_id(row.session_key, row.turn_seq)
        touch = FileAttentionTouch(
            id=eid,
            session_id=sid,
            harness=row.harness,
            source=row.source,
            timestamp=format_timestamp(row.timestamp) if in_trace else None,
            tool_name=row.tool_name,
            phase="request",
            turn=row.turn_seq if in_trace else None,
            match_kind=row.match_kind,
            worktree_root=row.worktree_root,
            action_preview=row.action_preview,
        )
        out.append(FileAttentionEventRow(rank=rank, id=eid, event=touch, open=opened))
    return out


def _session_rows(
    store: Store, touch_filter: TouchFilter, limit: int, scan_cap: int | None
) -> list[FileAttentionSessionRow]:
    rollups = touch_sessions(store, touch_filter, limit, scan_cap)
    joined = joined_turns(store, [(r.session_key, r.latest_turn_seq) for r in rollups])
    out: list[FileAttentionSessionRow] = []
    for rank, rollup in enumerate(rollups, start=1):
        sid = as_session_id(rollup.session_key)
        opened = FileAttentionSessionOpen(
            session_id=sid, event_id=as_event_id(rollup.session_key, rollup.latest_seq)
        )
        if (rollup.session_key, rollup.latest_turn_seq) in joined:  # set only then, as for event rows
            opened.turn_id = as_turn_id(rollup.session_key, rollup.latest_turn_seq)
        session = FileAttentionSessionRollup(
            id=sid,
            harness=rollup.harness,
            source=rollup.source,
            first_touch=format_timestamp(rollup.first_touch),
            last_touch=format_timestamp(rollup.last_touch),
            touch_count=rollup.touch_count,
            tools=list(rollup.tools),
            worktree_roots=list(rollup.worktree_roots),
            match_kinds=list(rollup.match_kinds),
        )
        out.append(FileAttentionSessionRow(rank=rank, id=sid, session=session, open=opened))
    return out


def handle(request: ParsedAttention, deps: Deps) -> Outcome:
    """Answer a parsed file_attention request from the store (relative paths from ``deps.launch_dir``)."""
    result = file_attention_data(
        deps.store,
        request,
        launch_dir=None if deps.launch_dir is None else str(deps.launch_dir),
        floor=deps.floor,
    )
    return Outcome(result.data, harness_warnings(request.harness, deps.harnesses) + result.warnings)
