"""Claude Desktop as an MCP client: ``mcpServers`` in ``claude_desktop_config.json`` (local servers only)."""

from moraine.harnesses.mcp_client import McpClient, command_entry

CLIENT = McpClient(
    name="claude-desktop",
    display_name="Claude Desktop",
    path="~/.config/Claude/claude_desktop_config.json",
    macos_path="~/Library/Application Support/Claude/claude_desktop_config.json",
    windows_path="%APPDATA%/Claude/claude_desktop_config.json",
    stdio=command_entry,
    hint="restart Claude Desktop after writing; its file cannot send our HTTP header, so it always launches moraine mcp",
)
