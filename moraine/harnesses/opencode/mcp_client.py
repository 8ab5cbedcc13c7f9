"""OpenCode as an MCP client: the ``mcp`` object of ``~/.config/opencode/opencode.json``."""

from typing import Any

from moraine.harnesses.mcp_client import HttpTarget, Launch, McpClient


def _stdio(launch: Launch) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": "local", "command": [launch.command, *launch.args], "enabled": True}
    if launch.env:
        entry["environment"] = dict(launch.env)
    return entry


def _http(target: HttpTarget) -> dict[str, Any]:
    return {"type": "remote", "url": target.url, "headers": target.headers, "enabled": True}


CLIENT = McpClient(
    name="opencode",
    display_name="OpenCode",
    path="~/.config/opencode/opencode.json",
    project_path="opencode.json",
    servers_key="mcp",
    stdio=_stdio,
    http=_http,
    hint="OpenCode reads it at start",
)
