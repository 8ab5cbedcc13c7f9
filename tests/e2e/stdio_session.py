"""Run every contract call once against a real ``moraine mcp`` over stdio and keep the results."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mcp_types as types
from contract_rows import EMPTY_STORE_ROWS, VALIDATION_ROWS
from mcp import Client, StdioServerParameters

__all__ = ["MORAINE", "SUCCESS_CALLS", "StdioRun", "run_calls"]

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


async def run_calls(params: StdioServerParameters) -> StdioRun:
    """List the tools, then make every contract call in one session."""
    async with Client(params, read_timeout_seconds=120) as client:
        listed = await client.list_tools()
        results = {name: await client.call_tool(tool, args) for name, (tool, args) in _calls().items()}
        unknown: types.CallToolResult | Exception
        try:
            unknown = await client.call_tool("no_such_tool", {})
        except Exception as exc:  # a JSON-RPC error is also an acceptable answer to an unknown tool
            unknown = exc
    return StdioRun(list(listed.tools), results, unknown)
