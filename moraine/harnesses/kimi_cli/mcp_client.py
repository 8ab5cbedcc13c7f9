"""Kimi CLI as an MCP client: ``mcpServers`` in ``~/.kimi/mcp.json``."""

from moraine.harnesses.mcp_client import McpClient, command_entry, url_headers

CLIENT = McpClient(
    name="kimi-cli",
    display_name="Kimi CLI",
    path="~/.kimi/mcp.json",
    stdio=command_entry,
    http=url_headers,
    hint="the same as `kimi mcp add moraine -- moraine mcp`",
)
