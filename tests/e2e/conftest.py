"""One real ``moraine mcp`` process over stdio, spawned as a user's MCP client would, shared by the e2e tests.

The fixture makes every call of the contract tables in one session and keeps the results, so each table row is its
own test case while the server starts once.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from contract_rows import EMPTY_STORE_ROWS, VALIDATION_ROWS
from mcp import Client, StdioServerParameters

MORAINE = Path(sys.executable).with_name("moraine")

SUCCESS_CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "search canonical request": (
        "search_sessions",
        {"query": "  spaced query  ", "event_types": ["assistant_response", "user_input", "user_input"]},
    ),
    "search n_hits 5.0 is the integer 5": ("search_sessions", {"query": "migration", "n_hits": 5.0}),
    "list defaults": (
        "list_sessions",
        {"start_datetime": "2026-04-30T09:00:00-04:00", "end_datetime": "2026-04-30T13:00:00-04:00"},
    ),
    "file_attention defaults": ("file_attention", {"path": "src/moraine/a.py", "scope": "all"}),
}


@dataclass(frozen=True)
class StdioRun:
    tools: list[types.Tool]
    results: dict[str, types.CallToolResult]
    unknown_tool: types.CallToolResult | Exception


def _calls() -> dict[str, tuple[str, dict[str, Any]]]:
    calls = {row[0]: (row[1], row[2]) for row in [*VALIDATION_ROWS, *EMPTY_STORE_ROWS]}
    return {**calls, **SUCCESS_CALLS}


async def _run(params: StdioServerParameters) -> StdioRun:
    async with Client(params, read_timeout_seconds=120) as client:
        listed = await client.list_tools()
        results = {name: await client.call_tool(tool, args) for name, (tool, args) in _calls().items()}
        unknown: types.CallToolResult | Exception
        try:
            unknown = await client.call_tool("no_such_tool", {})
        except Exception as exc:  # a JSON-RPC error is also an acceptable answer to an unknown tool
            unknown = exc
    return StdioRun(list(listed.tools), results, unknown)


@pytest.fixture(scope="session")
def stdio_run(tmp_path_factory: pytest.TempPathFactory) -> StdioRun:
    """Spawn ``moraine mcp`` with a throwaway MORAINE_HOME and make every contract call once."""
    home = tmp_path_factory.mktemp("moraine-home")
    assert MORAINE.exists(), f"{MORAINE} missing: pip install -e . into the venv"
    params = StdioServerParameters(
        command=str(MORAINE),
        args=["mcp"],
        env={"MORAINE_HOME": str(home / ".moraine"), "HOME": str(home)},
        cwd=str(home),
    )
    return anyio.run(_run, params)
