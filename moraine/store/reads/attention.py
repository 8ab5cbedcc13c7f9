"""file_attention's queries: touches of one tail, filtered, summarized by root, paged as events or sessions.

Every read is a key-range lookup on ``touches`` (ORDER BY tail, ...); touches whose root is unknown are also found by
suffix through the ``by_rpath`` projection (migration 002). At most ``scan_cap`` matching touches, newest first, are
considered; beyond that the summary says ``scan_truncated``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from moraine.store.reads.floor import ProjectFloor, project_condition
from moraine.store.client import Store
from moraine.store.reads.listing import to_epoch_ms

__all__ = [
    "READ_TOOLS",
    "SCAN_CAP",
    "UNKNOWN_ROOT",
    "RootBucket",
    "SessionRollup",
    "TouchFilter",
    "TouchRow",
    "TouchStats",
    "count_touches",
    "joined_turns",
    "touch_events",
    "touch_sessions",
    "touch_stats",
]

SCAN_CAP = 100_000
UNKNOWN_ROOT = "(unknown)"
# Pure-read tools (lower case) that mutations_only leaves out.
READ_TOOLS: tuple[str, ...] = (
    "read",
    "readfile",
    "read_file",
    "read_many_files",
    "notebookread",
    "notebook_read",
    "view",
    "view_file",
    "cat",
    "head",
    "tail",
    "less",
    "grep",
    "grep_search",
    "rg",
    "search",
    "codebase_search",
    "file_search",
    "glob",
    "ls",
    "list",
    "list_dir",
    "list_files",
    "find",
    "stat",
    "fs_read",
    "view_image",
    "search_files",
    "search_file_content",
    # VS Code Copilot, the Cline family, Visual Studio Copilot
    "copilot_readfile",
    "copilot_findfiles",
    "copilot_findtextinfiles",
    "copilot_listdirectory",
    "copilot_searchcodebase",
    "listfilestoplevel",
    "listfilesrecursive",
    "listcodedefinitionnames",
    "searchfiles",
    "get_file",
    "code_search",
)


@dataclass(frozen=True, slots=True)
class TouchFilter:
    """Which touches count: the tail (absolute when nothing was stripped) and the request's filters."""

    tail: str
    tail_is_absolute: bool
    project_id: str | None = None  # scope=project: only this project's touches
    start: datetime | None = None  # inclusive
    end: datetime | None = None  # exclusive
    tool: str | None = None  # case-insensitive
    harness: str | None = None
    source: str | None = None
    mutations_only: bool = False
    exact_only: bool = False  # skip the suffix lookup (set once the stats showed no unknown-root touch)
    floor: ProjectFloor | None = None  # a project-only server's scope: only its sessions' touches, any scope


@dataclass(frozen=True, slots=True)
class RootBucket:
    root: str | None  # None: unknown root
    touch_count: int
    session_count: int


@dataclass(frozen=True, slots=True)
class TouchStats:
    total_touches: int
    distinct_sessions: int
    first_touch: datetime | None
    last_touch: datetime | None
    roots: tuple[RootBucket, ...]
    scan_truncated: bool


@dataclass(frozen=True, slots=True)
class TouchRow:
    session_key: int
    seq: int
    turn_seq: int
    harness: str
    source: str
    timestamp: datetime | None
    tool_name: str
    match_kind: str
    worktree_root: str | None
    action_preview: str


@dataclass(frozen=True, slots=True)
class SessionRollup:
    session_key: int
    harness: str
    source: str
    first_touch: datetime | None
    last_touch: datetime | None
    touch_count: int
    tools: tuple[str, ...]
    worktree_roots: tuple[str, ...]
    match_kinds: tuple[str, ...]
    latest_seq: int
    latest_turn_seq: int


_ROW_COLUMNS = "session_key, seq, turn_seq, harness, source, timestamp, tool_name, match_kind, worktree_root, action_preview"
# Each read names only the columns it needs: UNION ALL branches are read as written.
_STAT_COLUMNS = "session_key, seq, timestamp, worktree_root"
_ROLLUP_COLUMNS = (
    "session_key, seq, turn_seq, harness, source, timestamp, tool_name, match_kind, worktree_root"
)
_ORDER = "timestamp DESC NULLS LAST, session_key DESC, seq DESC"


def _filters(f: TouchFilter) -> tuple[str, dict[str, Any]]:
    clauses: list[str] = []
    params: dict[str, Any] = {"tail": f.tail}
    if f.project_id is not None:
        clauses.append("project_id = {project:String}")
        params["project"] = f.project_id
    if f.start is not None:
        clauses.append("timestamp >= fromUnixTimestamp64Milli({start:Int64}, 'UTC')")
        params["start"] = to_epoch_ms(f.start)  # a datetime parameter breaks on years before 1000
    if f.end is not None:
        clauses.append("timestamp < fromUnixTimestamp64Milli({end:Int64}, 'UTC')")
        params["end"] = to_epoch_ms(f.end)
    if f.tool is not None:
        clauses.append("lowerUTF8(tool_name) = lowerUTF8({tool:String})")
        params["tool"] = f.tool
    if f.mutations_only:
        clauses.append("lowerUTF8(tool_name) NOT IN {reads:Array(String)}")
        params["reads"] = list(READ_TOOLS)
    if f.harness is not None:
        clauses.append("harness = {harness:String}")
        params["harness"] = f.harness
    if f.source is not None:
        clauses.append("source = {source:String}")
        params["source"] = f.source
    return "".join(f" AND {clause}" for clause in clauses), params


def _matched(
    store: Store, f: TouchFilter, cap: int | None, newest: bool, columns: str = _ROW_COLUMNS
) -> tuple[str, dict[str, Any]]:
    """Return SQL selecting the matching touches and its parameters.

    With ``newest``, rows come newest first and ``cap`` keeps that many; without it, ``cap`` bounds each of the two
    lookups (exact tail, suffix of unknown roots), so up to twice ``cap`` rows may come back.
    """
    where, params = _filters(f)
    if f.floor is not None:
        condition, floor_params = project_condition(store, f.floor.project_id)
        where += f" AND {condition}"
        params.update(floor_params)
    table = store.table("touches")
    exact = f"SELECT {columns} FROM {table} WHERE tail = {{tail:String}}{where}"
    if f.tail_is_absolute:
        # Known-root touches of this very file (their tail is relative): found by their full path.
        suffix = (
            f"SELECT {columns} FROM {table} WHERE startsWith(rpath, reverse({{tail:String}})) "
            f"AND path = {{tail:String}} AND tail != {{tail:String}}{where}"
        )
    else:
        # Unknown-root touches keep an absolute (or cwd-less relative) tail: match it by suffix "/tail".
        suffix = (
            f"SELECT {columns} FROM {table} WHERE startsWith(rpath, reverse(concat('/', {{tail:String}}))) "
            f"AND worktree_root IS NULL AND tail != {{tail:String}}{where}"
        )
    if cap is not None:
        params["cap"] = cap
    if f.exact_only and not f.tail_is_absolute:
        order = f" ORDER BY {_ORDER}" if newest else ""
        return exact + order + (" LIMIT {cap:UInt64}" if cap is not None else ""), params
    if newest:
        limit = " LIMIT {cap:UInt64}" if cap is not None else ""
        return f"SELECT * FROM ({exact} UNION ALL {suffix}) ORDER BY {_ORDER}{limit}", params
    if cap is not None:  # each branch stops early; together they may hold up to twice ``cap`` rows
        return f"{exact} LIMIT {{cap:UInt64}} UNION ALL {suffix} LIMIT {{cap:UInt64}}", params
    # No wrapping SELECT: a plain UNION ALL lets the consumer's aggregation read only what it needs.
    return f"{exact} UNION ALL {suffix}", params


_STATS = (
    "SELECT grouping(worktree_root) AS total, worktree_root, count(), uniqExact(session_key), "
    "min(timestamp), max(timestamp) FROM ({matched}) GROUP BY GROUPING SETS ((worktree_root), ())"
)


def touch_stats(store: Store, f: TouchFilter, scan_cap: int = SCAN_CAP) -> TouchStats:
    """Return totals and root buckets over the scanned touches (the newest ``scan_cap`` when more match)."""
    matched, params = _matched(store, f, scan_cap + 1, newest=False, columns=_STAT_COLUMNS)
    stats = _stats(store.query(_STATS.format(matched=matched), params), scan_truncated=False)
    if stats.total_touches <= scan_cap:
        return stats
    matched, params = _matched(store, f, scan_cap, newest=True, columns=_STAT_COLUMNS)
    return _stats(store.query(_STATS.format(matched=matched), params), scan_truncated=True)


def count_touches(store: Store, f: TouchFilter, cap: int = SCAN_CAP) -> int:
    """Return how many touches match (counting stops at ``cap``)."""
    matched, params = _matched(store, f, cap, newest=False, columns="seq")
    return min(cap, int(store.query(f"SELECT count() FROM ({matched})", params)[0][0]))


def _stats(rows: Sequence[Sequence[Any]], scan_truncated: bool) -> TouchStats:
    total = next((row for row in rows if row[0] == 1), None)
    buckets = [RootBucket(row[1], int(row[2]), int(row[3])) for row in rows if row[0] == 0]
    if total is None or int(total[2]) == 0:
        return TouchStats(0, 0, None, None, (), scan_truncated)
    return TouchStats(int(total[2]), int(total[3]), total[4], total[5], _sorted(buckets), scan_truncated)


def _sorted(buckets: Sequence[RootBucket]) -> tuple[RootBucket, ...]:
    return tuple(sorted(buckets, key=lambda b: (-b.touch_count, b.root is None, b.root or "")))


def touch_events(store: Store, f: TouchFilter, limit: int) -> list[TouchRow]:
    """Return the newest ``limit`` touches (timestamp desc, nulls last, then event desc).

    The scan cap keeps the newest touches, so this page is the same whether or not the cap was hit.
    """
    matched, params = _matched(store, f, limit, newest=True)
    rows = store.query(matched, params)
    return [TouchRow(int(r[0]), int(r[1]), int(r[2]), r[3], r[4], r[5], r[6], r[7], r[8], r[9]) for r in rows]


def touch_sessions(
    store: Store, f: TouchFilter, limit: int, scan_cap: int | None = None
) -> list[SessionRollup]:
    """Return one rollup per session, most recently touching session first.

    With ``scan_cap`` (pass it when the cap was hit), only the newest ``scan_cap`` touches are rolled up.
    """
    matched, params = _matched(store, f, scan_cap, newest=scan_cap is not None, columns=_ROLLUP_COLUMNS)
    params["limit"] = limit
    rows = store.query(
        "SELECT session_key, any(harness), any(source), min(timestamp), max(timestamp) AS last, count(), "
        f"groupUniqArray(tool_name), groupUniqArray(ifNull(worktree_root, '{UNKNOWN_ROOT}')), "
        "groupUniqArray(match_kind), "
        "argMax(tuple(seq, turn_seq), tuple(ifNull(toUnixTimestamp64Milli(timestamp), toInt64(-1)), seq)) "
        f"FROM ({matched}) GROUP BY session_key "
        "ORDER BY last DESC NULLS LAST, session_key DESC LIMIT {limit:UInt64}",
        params,
    )
    return [
        SessionRollup(
            session_key=int(r[0]),
            harness=r[1],
            source=r[2],
            first_touch=r[3],
            last_touch=r[4],
            touch_count=int(r[5]),
            tools=tuple(sorted(r[6])),
            worktree_roots=tuple(sorted(r[7])),
            match_kinds=tuple(sorted(r[8])),
            latest_seq=int(r[9][0]),
            latest_turn_seq=int(r[9][1]),
        )
        for r in rows
    ]


def joined_turns(store: Store, keys: Sequence[tuple[int, int]]) -> set[tuple[int, int]]:
    """Return which ``(session_key, turn_seq)`` of touched events exist in the trace (the turns table).

    Touches are published with their events, before their turns, so a touch whose turn is stored joins the trace.
    """
    wanted = sorted({(key, turn) for key, turn in keys if turn > 0})
    if not wanted:
        return set()
    rows = store.query(
        f"SELECT DISTINCT session_key, turn_seq FROM {store.table('turns')} "
        "WHERE session_key IN {sessions:Array(UInt64)} "
        "AND (session_key, turn_seq) IN {pairs:Array(Tuple(UInt64, UInt32))}",
        {"sessions": sorted({key for key, _ in wanted}), "pairs": wanted},
    )
    return {(int(r[0]), int(r[1])) for r in rows}
