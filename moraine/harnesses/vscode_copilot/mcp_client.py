"""VS Code (Copilot chat) as an MCP client: ``servers`` in the user profile's ``mcp.json``."""

from typing import Any

from moraine.harnesses.mcp_client import Launch, McpClient, command_entry, typed_http


def _stdio(launch: Launch) -> dict[str, Any]:
    return {"type": "stdio", **command_entry(launch)}


CLIENT = McpClient(
    name="vscode",
    display_name="VS Code (Copilot chat)",
    path="~/.config/Code/User/mcp.json",
    macos_path="~/Library/Application Support/Code/User/mcp.json",
    windows_path="%APPDATA%/Code/User/mcp.json",
    project_path=".vscode/mcp.json",
    servers_key="servers",
    stdio=_stdio,
    http=typed_http("http"),
    hint="the same as `code --add-mcp`; VS Code asks you to trust the server once",
)
