"""Claude Code as an MCP client: user scope in ``~/.claude.json``; a project's ``.mcp.json`` only when asked."""

from moraine.harnesses.mcp_client import McpClient, command_entry, typed_http

CLIENT = McpClient(
    name="claude-code",
    display_name="Claude Code",
    path="~/.claude.json",
    project_path=".mcp.json",
    present="~/.claude",
    stdio=command_entry,
    http=typed_http("http"),
    hint="user scope: every project (the same as `claude mcp add --scope user`)",
)
