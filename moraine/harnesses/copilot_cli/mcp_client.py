"""GitHub Copilot CLI as an MCP client: ``mcpServers`` in ``~/.copilot/mcp-config.json``, every tool allowed."""

from typing import Any

from moraine.harnesses.mcp_client import HttpTarget, Launch, McpClient, command_entry


def _stdio(launch: Launch) -> dict[str, Any]:
    return {"type": "local", **command_entry(launch), "tools": ["*"]}


def _http(target: HttpTarget) -> dict[str, Any]:
    return {"type": "http", "url": target.url, "headers": target.headers, "tools": ["*"]}


CLIENT = McpClient(
    name="copilot-cli",
    display_name="GitHub Copilot CLI",
    path="~/.copilot/mcp-config.json",
    stdio=_stdio,
    http=_http,
    hint="the same as `/mcp add` inside copilot",
)
