"""The MCP server (official SDK, low-level ``Server``): lists the generated descriptors, answers through the service."""

from __future__ import annotations

from importlib import metadata
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server

from generated.descriptors import DESCRIPTORS, SERVER
from moraine.server.service import ToolReply, ToolService

__all__ = ["build_mcp_server", "reply_text"]


def _version() -> str:
    try:
        return metadata.version("moraine")
    except metadata.PackageNotFoundError:
        return "0"


def reply_text(reply: ToolReply) -> str:
    """Return the short text content that accompanies the structured envelope."""
    envelope = reply.envelope
    tool = envelope["tool"]
    if reply.is_error:
        return f"{tool} failed: {envelope['error']['code']}: {envelope['error']['message']}"
    data: dict[str, Any] = envelope["data"]
    if "result_count" in data:
        more = " (more exist)" if data.get("truncated") else ""
        summary = f"{data['result_count']} result(s){more}"
    else:
        summary = f"opened {data.get('kind', 'item')}"
    warnings = f"; {len(envelope['warnings'])} warning(s)" if envelope["warnings"] else ""
    return f"{tool}: {summary}{warnings}. The full result is in structuredContent."


def build_mcp_server(service: ToolService) -> Server[Any]:
    """Return the MCP server for ``service``: four tools, every call answered in-band."""
    tools = [types.Tool.model_validate(descriptor) for descriptor in DESCRIPTORS.values()]

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        reply = await service.call(params.name, params.arguments if params.arguments is not None else {})
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=reply_text(reply))],
            structured_content=reply.envelope,
            is_error=reply.is_error,
        )

    return Server(
        SERVER["name"],
        version=_version(),
        title=SERVER["title"],
        instructions=SERVER["instructions"],
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
