"""Roo Code as an MCP client: ``mcp_settings.json`` in its VS Code global storage (a project's ``.roo/mcp.json``)."""

from moraine.harnesses.mcp_client import McpClient, command_entry, typed_http

_SETTINGS = "globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"

CLIENT = McpClient(
    name="roo-code",
    display_name="Roo Code",
    path=f"~/.config/Code/User/{_SETTINGS}",
    macos_path=f"~/Library/Application Support/Code/User/{_SETTINGS}",
    windows_path=f"%APPDATA%/Code/User/{_SETTINGS}",
    project_path=".roo/mcp.json",
    present="~/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline",
    stdio=command_entry,
    http=typed_http("streamable-http"),
    hint="Roo Code reloads it when the file changes",
)
