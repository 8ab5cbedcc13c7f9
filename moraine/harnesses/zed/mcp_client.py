"""Zed as an MCP client: ``context_servers`` in ``~/.config/zed/settings.json`` (the same path on macOS)."""

from moraine.harnesses.mcp_client import McpClient, command_entry, url_headers

CLIENT = McpClient(
    name="zed",
    display_name="Zed",
    path="~/.config/zed/settings.json",
    windows_path="%APPDATA%/Zed/settings.json",
    project_path=".zed/settings.json",
    servers_key="context_servers",
    stdio=command_entry,
    http=url_headers,
    hint="a settings file with comments is left alone: add the entry by hand",
)
