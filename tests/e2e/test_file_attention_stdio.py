"""file_attention through a real MCP client: ``moraine mcp`` over stdio, launched in the test repository.

The traces are indexed by ``moraine ingest`` (a separate process, as a user would run it), then the client spawns
``moraine mcp`` with the main checkout as its working directory (the launch directory).
"""

from __future__ import annotations

from collections.abc import Iterator
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from fixtures.attention.layout import Layout
from fixtures.attention.traces import write_corpus
from fixtures.home_daemon import stop_daemons
from fixtures.migrated_store import seed_migrated_store
from jsonschema import Draft202012Validator
from mcp import Client, StdioServerParameters

MORAINE = Path(sys.executable).with_name("moraine")

CALLS: dict[str, dict[str, Any]] = {
    "defaults": {"path": "src/app.py"},
    "events": {"path": "src/app.py", "granularity": "events"},
    "all events": {"path": "src/app.py", "granularity": "events", "scope": "all"},
    "harness": {"path": "src/app.py", "granularity": "events", "harness": "codex"},
    "source": {"path": "src/app.py", "granularity": "events", "source": "claude"},
    "harness and source": {
        "path": "src/app.py",
        "granularity": "events",
        "harness": "claude-code",
        "source": "claude",
    },
    "harness and source disagree": {
        "path": "src/app.py",
        "granularity": "events",
        "harness": "codex",
        "source": "claude",
    },
    "tool": {"path": "src/app.py", "granularity": "events", "tool": "apply_PATCH"},
    "mutations only": {"path": "src/app.py", "granularity": "events", "mutations_only": True},
    "range": {
        "path": "src/app.py",
        "granularity": "events",
        "start_datetime": "2026-06-10T12:05:00Z",
        "end_datetime": "2026-06-12T10:01:00.000Z",
    },
    "limit": {"path": "src/app.py", "granularity": "events", "limit": 2},
    "absolute worktree path": {"path": "", "scope": "all"},  # filled in with the linked worktree's path
    "blank harness": {"path": "src/app.py", "harness": "  "},
    "blank source": {"path": "src/app.py", "source": ""},
    "whitespace path": {"path": " src/app.py"},
    "file uri": {"path": "file:///tmp/src/app.py"},
    "trailing slash": {"path": "src/"},
    "bad scope": {"path": "src/app.py", "scope": "everything"},
    "bad granularity": {"path": "src/app.py", "granularity": "turns"},
    "sub-millisecond": {"path": "src/app.py", "start_datetime": "2026-06-10T12:00:00.0001Z"},
    "no timezone": {"path": "src/app.py", "start_datetime": "2026-06-10T12:00:00"},
    "empty range": {
        "path": "src/app.py",
        "start_datetime": "2026-06-10T12:00:00Z",
        "end_datetime": "2026-06-10T12:00:00Z",
    },
    "unknown field": {"path": "src/app.py", "paths": ["a"]},
    "limit zero": {"path": "src/app.py", "limit": 0},
}
ERRORS: dict[str, str | None] = {
    "blank harness": "harness",
    "blank source": "source",
    "whitespace path": "path",
    "file uri": "path",
    "trailing slash": "path",
    "bad scope": "scope",
    "bad granularity": "granularity",
    "sub-millisecond": "start_datetime",
    "no timezone": "start_datetime",
    "empty range": "end_datetime",
    "unknown field": None,
    "limit zero": "limit",
}


@dataclass(frozen=True)
class Run:
    layout: Layout
    output_schema: dict[str, Any]
    results: dict[str, types.CallToolResult]
    opened: dict[str, types.CallToolResult]


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "MORAINE_HOME": str(home / ".moraine"), "HOME": str(home)}


def _config(home: Path, traces: Path) -> None:
    (home / ".moraine").mkdir(parents=True)
    (home / ".moraine" / "config.toml").write_text(
        f'[[sources]]\nname = "codex"\nglob = "{traces}/codex/**/*.jsonl"\n\n'
        f'[[sources]]\nname = "claude"\nglob = "{traces}/claude/**/*.jsonl"\n'
        "\n[semantic]\nenabled = false\n"  # lexical answers; no model loaded beside the test (daemon_support)
    )


async def _session(params: StdioServerParameters, calls: dict[str, dict[str, Any]]) -> tuple[Any, ...]:
    async with Client(params, read_timeout_seconds=120) as client:
        listed = await client.list_tools()
        schema = next(t.output_schema for t in listed.tools if t.name == "file_attention")
        results = {name: await client.call_tool("file_attention", args) for name, args in calls.items()}
        handles: set[str] = set()
        for result in results.values():
            data = (result.structured_content or {}).get("data") or {}
            for row in data.get("events", []) + data.get("sessions", []):
                handles.update(row["open"].values())
        opened = {handle: await client.call_tool("open", {"id": handle}) for handle in sorted(handles)}
    return schema, results, opened


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    assert MORAINE.exists(), f"{MORAINE} missing: pip install -e . into the venv"
    tmp = tmp_path_factory.mktemp("fa-e2e")
    layout = write_corpus(tmp)
    home = tmp / "home"
    _config(home, tmp / "traces")
    seed_migrated_store(home / ".moraine")
    subprocess.run([str(MORAINE), "ingest"], env=_env(home), check=True, capture_output=True, timeout=300)
    calls = dict(CALLS)
    calls["absolute worktree path"] = {"path": str(layout.linked / "src" / "app.py"), "scope": "all"}
    params = StdioServerParameters(command=str(MORAINE), args=["mcp"], env=_env(home), cwd=str(layout.repo))
    try:
        schema, results, opened = anyio.run(_session, params, calls)
        yield Run(layout, schema, results, opened)
    finally:
        stop_daemons([home / ".moraine"])  # not left idling for the rest of the session


def _data(run: Run, name: str) -> dict[str, Any]:
    result = run.results[name]
    assert result.is_error is False, result.structured_content
    assert [
        e.message for e in Draft202012Validator(run.output_schema).iter_errors(result.structured_content)
    ] == []
    assert result.structured_content is not None
    return dict(result.structured_content["data"])


def _tools(run: Run, name: str) -> list[str]:
    return [row["event"]["tool_name"] for row in _data(run, name)["events"]]


def test_default_request_rolls_up_the_launch_project_sessions(run: Run) -> None:
    envelope = run.results["defaults"].structured_content
    assert envelope is not None
    assert envelope["request"] == {
        "path": "src/app.py",
        "scope": "project",
        "granularity": "sessions",
        "start_datetime": None,
        "end_datetime": None,
        "tool": None,
        "harness": None,
        "source": None,
        "mutations_only": False,
        "limit": 50,
    }
    data = _data(run, "defaults")
    assert (data["tail"], data["stripped_root"]) == ("src/app.py", str(run.layout.repo))
    assert {r["root"] for r in data["roots"]} == {
        str(run.layout.repo),
        str(run.layout.linked),
        str(run.layout.agent),
    }
    assert (data["summary"]["total_touches"], data["summary"]["distinct_sessions"], data["result_count"]) == (
        5,
        3,
        3,
    )


def test_all_scope_adds_the_separate_non_git_directory(run: Run) -> None:
    data = _data(run, "all events")
    roots = {r["root"]: r["touch_count"] for r in data["roots"]}
    assert roots == {
        str(run.layout.repo): 2,
        str(run.layout.agent): 2,
        str(run.layout.linked): 1,
        str(run.layout.plain): 1,
    }
    assert all("file_attention" not in row["event"]["tool_name"] for row in data["events"])


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("events", ["Read", "Edit", "shell", "apply_patch", "exec_command"]),
        ("harness", ["shell", "apply_patch", "exec_command"]),
        ("source", ["Read", "Edit"]),
        ("harness and source", ["Read", "Edit"]),
        ("harness and source disagree", []),
        ("tool", ["apply_patch"]),
        ("mutations only", ["Edit", "shell", "apply_patch", "exec_command"]),
        ("range", ["Edit", "shell", "apply_patch"]),
        ("limit", ["Read", "Edit"]),
    ],
)
def test_permutation_rows_filter_exactly(run: Run, name: str, expected: list[str]) -> None:
    assert _tools(run, name) == expected
    data = _data(run, name)
    for row in data["events"]:
        for key in ("harness", "source"):
            if CALLS[name].get(key):
                assert row["event"][key] == CALLS[name][key]
    assert data["truncated"] is (name == "limit")


def test_absolute_path_in_a_worktree_reduces_to_its_tail(run: Run) -> None:
    data = _data(run, "absolute worktree path")
    assert (data["tail"], data["stripped_root"], data["tail_is_absolute"]) == (
        "src/app.py",
        str(run.layout.linked),
        False,
    )
    assert data["summary"]["total_touches"] == 6


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_validation_rules_return_invalid_request(run: Run, name: str) -> None:
    result = run.results[name]
    assert result.is_error is True
    envelope = result.structured_content
    assert envelope is not None
    assert [e.message for e in Draft202012Validator(run.output_schema).iter_errors(envelope)] == []
    assert envelope["error"]["code"] == "invalid_request", envelope["error"]
    if ERRORS[name] is not None:
        assert envelope["error"]["details"].get("field") == ERRORS[name], envelope["error"]


def test_every_returned_id_opens(run: Run) -> None:
    kinds = {handle.split(":", 1)[0] for handle in run.opened}
    assert kinds == {"event", "turn", "session"}
    for handle, result in run.opened.items():
        assert result.is_error is False, (handle, result.structured_content)
        assert result.structured_content is not None
        assert result.structured_content["data"]["kind"] == handle.split(":", 1)[0]


def test_event_rows_carry_the_timestamps_open_reports(run: Run) -> None:
    for row in _data(run, "all events")["events"]:
        opened = run.opened[row["open"]["event_id"]].structured_content
        assert opened is not None
        assert opened["data"]["event"]["timestamp"] == row["event"]["timestamp"]
        assert opened["data"]["traversal"]["turn_id"] == row["open"]["turn_id"]
