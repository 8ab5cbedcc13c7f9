"""Windsurf as an MCP client: ``mcpServers`` in ``~/.codeium/windsurf/mcp_config.json`` (HTTP: ``serverUrl``)."""

from typing import Any

from moraine.harnesses.mcp_client import HttpTarget, McpClient, command_entry


def _http(target: HttpTarget) -> dict[str, Any]:
    return {"serverUrl": target.url, "headers": target.headers}


CLIENT = McpClient(
    name="windsurf",
    display_name="Windsurf",
    path="~/.codeium/windsurf/mcp_config.json",
    stdio=command_entry,
    http=_http,
    hint="refresh the MCP list in Cascade after writing",
)
