"""Session neighbours through a real MCP client: ``open(session).data.traversal.previous_session_id`` and
``next_session_id`` walk one harness's sessions of one project in time order (start, then session ID), null at the
ends; sessions without a project have none. The walk works the same on a project-only server."""

from __future__ import annotations

from typing import Any

import pytest

from fixtures.scope.projects import CODEX, Call, ScopeHome, Server, key_of, run_servers
from moraine.ids import session_id

NAMES = {session_id(key_of(spec.name)): spec.name for spec in [*CODEX]}


def _codex_in(project: str) -> list[str]:
    """Return the Codex sessions of a project in (start, session ID) order."""
    specs = [s for s in CODEX if s.cwd.split("/")[0].removesuffix("-wt") == project and s.cwd != "plain/sub"]
    return [s.name for s in sorted(specs, key=lambda s: (s.minute, session_id(key_of(s.name))))]


async def _walk(call: Call, start: str, link: str) -> list[str]:
    seen = [start]
    current: str | None = session_id(key_of(start))
    while True:
        reply = await call("open", {"id": current})
        assert not reply.is_error, reply.envelope
        current = reply.data["traversal"][link]
        if current is None:
            return seen
        assert len(seen) < 20, "the walk does not end"
        seen.append(NAMES[current])


async def _walks(call: Call, instructions: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for project in ("alpha", "beta", "plain"):
        order = _codex_in(project)
        out[f"{project} next"] = await _walk(call, order[0], "next_session_id")
        out[f"{project} previous"] = await _walk(call, order[-1], "previous_session_id")
    for lone in ("g1", "ps", "c1"):
        reply = await call("open", {"id": session_id(key_of(lone))})
        assert not reply.is_error, reply.envelope
        traversal = reply.data["traversal"]
        out[f"{lone} links"] = (traversal["previous_session_id"], traversal["next_session_id"])
    return out


async def _floored_walk(call: Call, instructions: str | None) -> list[str]:
    return await _walk(call, _codex_in("alpha")[0], "next_session_id")


@pytest.fixture(scope="module")
def walks(scope_home: ScopeHome) -> tuple[dict[str, Any], list[str]]:
    plain, floored = run_servers(
        scope_home,
        [
            (Server(scope_home.path), _walks),
            (Server(scope_home.work / "alpha", ("--project-only",)), _floored_walk),
        ],
    )
    return plain, floored


def test_walking_next_from_a_projects_first_session_visits_its_sessions_in_time_order_then_null(
    walks: tuple[dict[str, Any], list[str]],
) -> None:
    plain, _ = walks
    assert plain["alpha next"] == _codex_in("alpha")
    assert plain["beta next"] == ["b1", "b2"]
    assert plain["plain next"] == ["p1", "p2"]


def test_the_alpha_walk_crosses_its_linked_worktree_and_subdirectory_and_breaks_a_start_tie_by_session_id(
    walks: tuple[dict[str, Any], list[str]],
) -> None:
    order = walks[0]["alpha next"]
    assert set(order) == {"a1", "a2", "a3", "a4"} and order[:2] == ["a1", "a2"]
    tied = sorted(["a3", "a4"], key=lambda name: session_id(key_of(name)))
    assert order[2:] == tied


def test_walking_previous_from_the_last_session_is_the_reverse_walk(
    walks: tuple[dict[str, Any], list[str]],
) -> None:
    plain, _ = walks
    for project in ("alpha", "beta", "plain"):
        assert plain[f"{project} previous"] == list(reversed(plain[f"{project} next"]))


def test_sessions_without_a_project_or_alone_in_their_harness_and_project_have_null_neighbours(
    walks: tuple[dict[str, Any], list[str]],
) -> None:
    plain, _ = walks
    assert plain["g1 links"] == (None, None)  # its directory no longer exists: no project
    assert plain["ps links"] == (None, None)  # plain/sub is its own (non-Git) project with one session
    assert plain["c1 links"] == (
        None,
        None,
    )  # the only Claude Code session of alpha: Codex ones are not neighbours


def test_a_project_only_server_walks_the_same_chain(walks: tuple[dict[str, Any], list[str]]) -> None:
    plain, floored = walks
    assert floored == plain["alpha next"]
