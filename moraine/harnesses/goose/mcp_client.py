"""Goose as an MCP client: an ``extensions`` entry in ``~/.config/goose/config.yaml``."""

from typing import Any

from moraine.harnesses.mcp_client import HttpTarget, Launch, McpClient

_COMMON: dict[str, Any] = {"enabled": True, "name": "moraine", "timeout": 300, "bundled": None}


def _stdio(launch: Launch) -> dict[str, Any]:
    return {
        **_COMMON,
        "type": "stdio",
        "cmd": launch.command,
        "args": list(launch.args),
        "envs": dict(launch.env),
    }


def _http(target: HttpTarget) -> dict[str, Any]:
    return {**_COMMON, "type": "streamable_http", "uri": target.url, "headers": target.headers, "envs": {}}


CLIENT = McpClient(
    name="goose",
    display_name="Goose",
    path="~/.config/goose/config.yaml",
    windows_path="%APPDATA%/Block/goose/config/config.yaml",
    format="yaml",
    servers_key="extensions",
    stdio=_stdio,
    http=_http,
    hint="the same as `goose configure` -> Add Extension",
)
