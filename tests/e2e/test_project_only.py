"""Project-only servers through a real MCP client: ``moraine mcp --project-only`` launched in one test repository
never shows a session from another project, for every tool and every parameter combination that could widen scope.

Each row runs on a project-only server launched in ``alpha`` and on an ordinary server launched in the same
directory (same daemon). The ordinary answer shows that the row could widen scope (it names another project's
session, or opens it); the project-only answer names only alpha's sessions, answers not_found for IDs outside, and
every ID it returns opens on it. The ``[mcp] project_only`` config key gives the same floor.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from fixtures.scope.projects import (
    DAY,
    Call,
    Reply,
    ScopeHome,
    Server,
    key_of,
    names_in,
    run_servers,
)
from moraine import ids
from moraine.ids import event_id, session_id, turn_id

ALPHA = {key_of(name) for name in names_in("alpha")}
OUTSIDE = ["b1", "b2", "p1", "p2", "ps", "g1"]
ALL_TYPES = ["user_input", "assistant_response", "reasoning", "tool_call", "tool_response", "compaction",
             "system", "runtime"]  # fmt: skip
_ID = re.compile(r"\b(?:session:ses|turn:turn|event:evt)_[0-9A-Z]+\b")


def _rows() -> list[tuple[str, str, dict[str, Any]]]:
    """Return (name, tool, arguments); ``{work}`` in a path is the projects' directory."""
    rows: list[tuple[str, str, dict[str, Any]]] = [
        ("search default", "search_sessions", {"query": "zebraword"}),
        ("search every event type, 50 hits", "search_sessions",
         {"query": "zebraword app", "event_types": ALL_TYPES, "n_hits": 50}),
        ("search harness codex", "search_sessions", {"query": "zebraword", "harness": "codex", "n_hits": 50}),
        ("search harness claude-code", "search_sessions", {"query": "zebraword", "harness": "claude-code"}),
        ("search source codex", "search_sessions", {"query": "zebraword", "source": "codex", "n_hits": 50}),
        ("search another project's marker", "search_sessions", {"query": "markerb1 markerp1 markerg1"}),
        ("search tool calls", "search_sessions", {"query": "cat src app", "event_types": ["tool_call"], "n_hits": 50}),
        ("list day desc", "list_sessions", {**DAY, "limit": 50}),
        ("list day asc", "list_sessions", {**DAY, "sort": "asc", "limit": 50}),
        ("list harness codex", "list_sessions", {**DAY, "harness": "codex", "limit": 50}),
        ("list source codex", "list_sessions", {**DAY, "source": "codex", "limit": 50}),
        ("list default limit", "list_sessions", DAY),
        ("list wide range", "list_sessions",
         {"start_datetime": "1970-01-01T00:00:00Z", "end_datetime": "2100-01-01T00:00:00Z", "limit": 50}),
    ]  # fmt: skip
    for scope in ("all", "project"):
        for granularity in ("sessions", "events"):
            rows.append(
                (
                    f"file_attention relative scope={scope} {granularity}",
                    "file_attention",
                    {"path": "src/app.py", "scope": scope, "granularity": granularity},
                )
            )
    for project in ("beta", "plain"):
        for granularity in ("sessions", "events"):
            rows.append(
                (
                    f"file_attention {project}'s absolute path scope=all {granularity}",
                    "file_attention",
                    {"path": f"{{work}}/{project}/src/app.py", "scope": "all", "granularity": granularity},
                )
            )
    rows.append(
        (
            "file_attention scope=all harness codex tool filter",
            "file_attention",
            {"path": "src/app.py", "scope": "all", "harness": "codex", "tool": "exec_command"},
        )
    )
    rows.append(("file_attention bare name scope=all", "file_attention", {"path": "app.py", "scope": "all"}))
    for name in OUTSIDE:
        key = key_of(name)
        rows += [
            (f"search within {name}'s session", "search_sessions", {"query": "zebraword", "within_id": session_id(key)}),
            (f"search within {name}'s turn", "search_sessions", {"query": "zebraword", "within_id": turn_id(key, 1)}),
            (f"open {name}'s session", "open", {"id": session_id(key)}),
            (f"open {name}'s session with limit", "open", {"id": session_id(key), "limit": 5}),
            (f"open {name}'s turn", "open", {"id": turn_id(key, 1)}),
            (f"open {name}'s turn with limit", "open", {"id": turn_id(key, 1), "limit": 2}),
            (f"open {name}'s first event", "open", {"id": event_id(key, 1)}),
            (f"open {name}'s tool call", "open", {"id": event_id(key, 3)}),
        ]  # fmt: skip
    return rows


ROWS = _rows()
ID_ROWS = {name for name, _, args in ROWS if "id" in args or "within_id" in args}


def _arguments(args: dict[str, Any], work: Path) -> dict[str, Any]:
    return {k: v.replace("{work}", str(work)) if isinstance(v, str) else v for k, v in args.items()}


def _keys(envelope: Any) -> set[int]:
    """Return the session key of every session, turn and event ID anywhere in an envelope."""
    text = repr(envelope)
    return {ids.parse_id(found).key for found in _ID.findall(text)}


async def _run_rows(call: Call, work: Path) -> dict[str, Reply]:
    return {name: await call(tool, _arguments(args, work)) for name, tool, args in ROWS}


async def _ordinary(call: Call, work: Path) -> dict[str, Any]:
    replies = await _run_rows(call, work)
    turn = await call("open", {"id": turn_id(key_of("b1"), 1), "limit": 1})
    return {"rows": replies, "foreign cursor": turn.data["next_cursor"]}


async def _floored(call: Call, work: Path, foreign_cursor: str) -> dict[str, Any]:
    replies = await _run_rows(call, work)
    returned = set()
    for reply in replies.values():
        if not reply.is_error:
            returned |= set(_ID.findall(repr(reply.envelope["data"])))
    opened = {found: await call("open", {"id": found}) for found in sorted(returned)}
    pages = []
    listing = await call("list_sessions", {**DAY, "limit": 1})
    pages.append(listing)
    while listing.data["next_cursor"]:
        listing = await call("list_sessions", {"cursor": listing.data["next_cursor"], **DAY, "limit": 1})
        pages.append(listing)
        assert len(pages) < 20
    cursor = await call("open", {"cursor": foreign_cursor})
    return {"rows": replies, "opened": opened, "pages": pages, "foreign cursor": cursor}


@pytest.fixture(scope="module")
def runs(scope_home: ScopeHome) -> dict[str, Any]:
    work = scope_home.work
    alpha = work / "alpha"
    ordinary: dict[str, Any] = {}

    async def first(call: Call, instructions: str | None) -> None:
        ordinary.update(await _ordinary(call, work))
        ordinary["instructions"] = instructions

    async def second(call: Call, instructions: str | None) -> dict[str, Any]:
        found = await _floored(call, work, ordinary["foreign cursor"])
        found["instructions"] = instructions
        return found

    async def worktree(call: Call, instructions: str | None) -> dict[str, Any]:
        listing = await call("list_sessions", {**DAY, "limit": 50})
        return {"list": listing, "instructions": instructions}

    config = scope_home.path / "project-only.toml"
    config.write_text("[mcp]\nproject_only = true\n")
    _, floored, from_worktree, configured = run_servers(
        scope_home,
        [
            (Server(alpha), first),
            (Server(alpha, ("--project-only",)), second),
            (Server(work / "alpha-wt", ("--project-only",)), worktree),
            (Server(alpha, env=(("MORAINE_CONFIG", str(config)),)), worktree),
        ],
    )
    return {"ordinary": ordinary, "floored": floored, "worktree": from_worktree, "configured": configured}


@pytest.mark.parametrize("row", [name for name, _, _ in ROWS])
def test_the_row_could_widen_scope_on_an_ordinary_server(runs: dict[str, Any], row: str) -> None:
    reply: Reply = runs["ordinary"]["rows"][row]
    assert not reply.is_error, reply.envelope
    if row == "search harness claude-code":  # the only Claude Code session is alpha's: the filter matches
        assert _keys(reply.envelope["data"]) == {key_of("c1")}
        return
    if "scope=project" in row:  # b2 (from beta) touched alpha's file: request-level project scope keeps it
        assert key_of("b2") in _keys(reply.envelope["data"]), reply.envelope["data"]
        return
    assert _keys(reply.envelope["data"]) - ALPHA, (
        f"{row}: the ordinary server shows no other project's session"
    )


@pytest.mark.parametrize("row", [name for name, _, _ in ROWS])
def test_a_project_only_server_never_shows_another_projects_session(runs: dict[str, Any], row: str) -> None:
    reply: Reply = runs["floored"]["rows"][row]
    if row in ID_ROWS:
        assert reply.is_error and reply.code == "not_found", reply.envelope
        return
    assert not reply.is_error, reply.envelope
    keys = _keys(reply.envelope["data"])
    assert keys <= ALPHA, f"{row}: outside sessions {sorted(keys - ALPHA)}"
    if "marker" in row or "plain's absolute path" in row or "bare name" in row:
        assert keys == set(), reply.envelope["data"]  # only other projects match: nothing is left
    else:
        assert keys, f"{row}: nothing of alpha was returned either"


def test_every_id_a_project_only_server_returns_opens_on_it(runs: dict[str, Any]) -> None:
    opened: dict[str, Reply] = runs["floored"]["opened"]
    assert len(opened) > 10
    failures = {found: reply.envelope["error"] for found, reply in opened.items() if reply.is_error}
    assert failures == {}


def test_listing_pages_of_a_project_only_server_hold_exactly_the_launch_projects_sessions(
    runs: dict[str, Any],
) -> None:
    pages: list[Reply] = runs["floored"]["pages"]
    listed = [row["id"] for page in pages for row in page.data["sessions"]]
    assert sorted(listed) == sorted(session_id(key) for key in ALPHA)


def test_a_linked_worktree_sees_the_same_project(runs: dict[str, Any]) -> None:
    listing: Reply = runs["worktree"]["list"]
    assert {row["id"] for row in listing.data["sessions"]} == {session_id(key) for key in ALPHA}


def test_a_cursor_minted_for_another_client_does_not_open_outside_sessions(runs: dict[str, Any]) -> None:
    assert runs["ordinary"]["foreign cursor"], "the ordinary server gave no cursor to try"
    reply: Reply = runs["floored"]["foreign cursor"]
    assert reply.is_error and reply.code == "not_found", reply.envelope
    assert _keys(reply.envelope.get("data")) == set()


def test_the_instructions_of_a_project_only_server_name_its_visible_root(
    runs: dict[str, Any], scope_home: ScopeHome
) -> None:
    floored = runs["floored"]["instructions"]
    ordinary = runs["ordinary"]["instructions"]
    assert ordinary and "project-only" not in ordinary
    assert floored and floored.startswith(ordinary)
    assert f"Git repository at {scope_home.work / 'alpha'} " in floored
    assert str(scope_home.work / "alpha-wt") in runs["worktree"]["instructions"]


def test_the_project_only_config_key_gives_the_same_floor(runs: dict[str, Any]) -> None:
    listing: Reply = runs["configured"]["list"]
    assert {row["id"] for row in listing.data["sessions"]} == {session_id(key) for key in ALPHA}
    assert "project-only" in runs["configured"]["instructions"]
