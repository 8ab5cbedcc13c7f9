"""Gemini CLI as an MCP client: ``mcpServers`` in ``~/.gemini/settings.json`` (HTTP servers use ``httpUrl``)."""

from moraine.harnesses.mcp_client import McpClient, command_entry, http_url_headers


CLIENT = McpClient(
    name="gemini-cli",
    display_name="Gemini CLI",
    path="~/.gemini/settings.json",
    project_path=".gemini/settings.json",
    stdio=command_entry,
    http=http_url_headers,
    hint="the same as `gemini mcp add --scope user moraine moraine mcp`",
)
