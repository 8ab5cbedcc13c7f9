"""Every tool result's text block is the whole envelope as JSON, the same object as ``structuredContent``, so a
client that reads only ``content`` sees everything (issue 20). A real MCP client against ``moraine mcp``."""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types
import pytest
from clients_home import WINDOW, Call, run_client
from daemon_support import DaemonHome

# (tool, arguments) per case; "<session>" is replaced by a session ID the search returned.
CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "search_sessions success": ("search_sessions", {"query": "invoice export"}),
    "search_sessions error": ("search_sessions", {"query": "   "}),
    "open success": ("open", {"id": "<session>", "limit": 2}),
    "open error": ("open", {"id": "session:ses_NOTANID"}),
    "list_sessions success": ("list_sessions", WINDOW),
    "list_sessions error": ("list_sessions", {**WINDOW, "start_datetime": "yesterday"}),
    "file_attention success": ("file_attention", {"path": "billing/export.py", "scope": "all"}),
    "file_attention error": ("file_attention", {"path": "billing/export.py", "granularity": "files"}),
}


async def _script(call: Call) -> dict[str, types.CallToolResult]:
    found = await call("search_sessions", {"query": "invoice export"})
    session = found.structured_content["data"]["results"][0]["open"]["session_id"]
    results = {}
    for name, (tool, arguments) in CALLS.items():
        arguments = {k: (session if v == "<session>" else v) for k, v in arguments.items()}
        results[name] = await call(tool, arguments)
    return results


@pytest.fixture(scope="module")
def results(clients: DaemonHome) -> dict[str, types.CallToolResult]:
    return run_client(clients, _script)


@pytest.mark.parametrize("name", list(CALLS))
def test_text_block_is_the_structured_envelope_as_json(
    results: dict[str, types.CallToolResult], name: str
) -> None:
    result = results[name]
    assert result.is_error is name.endswith("error")
    assert result.structured_content is not None
    assert len(result.content) == 1 and isinstance(result.content[0], types.TextContent)
    assert json.loads(result.content[0].text) == result.structured_content
    if result.is_error:
        assert "error" in result.structured_content
    else:
        assert "data" in result.structured_content and result.structured_content["tool"] == CALLS[name][0]
