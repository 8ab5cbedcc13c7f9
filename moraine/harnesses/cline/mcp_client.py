"""Cline as an MCP client: ``cline_mcp_settings.json`` in the extension's VS Code global storage."""

from typing import Any

from moraine.harnesses.mcp_client import Launch, McpClient, command_entry, typed_http

_SETTINGS = "globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"


def _stdio(launch: Launch) -> dict[str, Any]:
    return {**command_entry(launch), "disabled": False}


CLIENT = McpClient(
    name="cline",
    display_name="Cline",
    path=f"~/.config/Code/User/{_SETTINGS}",
    macos_path=f"~/Library/Application Support/Code/User/{_SETTINGS}",
    windows_path=f"%APPDATA%/Code/User/{_SETTINGS}",
    present="~/.config/Code/User/globalStorage/saoudrizwan.claude-dev",
    stdio=_stdio,
    http=typed_http("streamableHttp"),
    hint="Cline reloads it when the file changes",
)
