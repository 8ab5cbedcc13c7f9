"""Codex as an MCP client: ``[mcp_servers.<name>]`` tables in ``~/.codex/config.toml``."""

from typing import Any

from moraine.harnesses.mcp_client import HttpTarget, McpClient, command_entry


def _http(target: HttpTarget) -> dict[str, Any]:
    return {"url": target.url, "http_headers": target.headers}


CLIENT = McpClient(
    name="codex",
    display_name="Codex",
    path="~/.codex/config.toml",
    format="toml",
    servers_key="mcp_servers",
    stdio=command_entry,
    http=_http,
    hint="the same as `codex mcp add moraine -- moraine mcp`",
)
