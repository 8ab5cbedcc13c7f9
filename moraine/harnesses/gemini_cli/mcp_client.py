"""Gemini CLI as an MCP client: ``mcpServers`` in ``~/.gemini/settings.json`` (HTTP servers use ``httpUrl``)."""

from moraine.harnesses.mcp_client import HttpTarget, McpClient, command_entry


def streamable_http(target: HttpTarget) -> dict[str, object]:
    """Return the Gemini CLI family's streamable HTTP entry (``httpUrl`` + ``headers``)."""
    return {"httpUrl": target.url, "headers": target.headers}


CLIENT = McpClient(
    name="gemini-cli",
    display_name="Gemini CLI",
    path="~/.gemini/settings.json",
    project_path=".gemini/settings.json",
    stdio=command_entry,
    http=streamable_http,
    hint="the same as `gemini mcp add --scope user moraine moraine mcp`",
)
