"""Qwen Code (a Gemini CLI fork) as an MCP client: ``mcpServers`` in ``~/.qwen/settings.json``."""

from moraine.harnesses.mcp_client import McpClient, command_entry, http_url_headers

CLIENT = McpClient(
    name="qwen-code",
    display_name="Qwen Code",
    path="~/.qwen/settings.json",
    project_path=".qwen/settings.json",
    stdio=command_entry,
    http=http_url_headers,
    hint="Qwen Code reads it at start",
)
