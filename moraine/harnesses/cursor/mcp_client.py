"""Cursor as an MCP client: ``~/.cursor/mcp.json`` (a project's ``.cursor/mcp.json`` only when asked)."""

from moraine.harnesses.mcp_client import McpClient, command_entry, url_headers

CLIENT = McpClient(
    name="cursor",
    display_name="Cursor",
    path="~/.cursor/mcp.json",
    project_path=".cursor/mcp.json",
    stdio=command_entry,
    http=url_headers,
    hint="Cursor reloads it on restart",
)
