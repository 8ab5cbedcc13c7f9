"""The MCP server (official SDK, low-level ``Server``): lists the generated descriptors, answers through the service."""

from __future__ import annotations

import json
from importlib import metadata
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server

from generated.descriptors import DESCRIPTORS, SERVER
from moraine.server.service import ToolReply, ToolService

__all__ = ["build_mcp_server", "tool_result"]


def _version() -> str:
    try:
        return metadata.version("moraine")
    except metadata.PackageNotFoundError:
        return "0"


def tool_result(reply: ToolReply) -> types.CallToolResult:
    """Return the MCP tool result of ``reply``: the envelope as ``structuredContent`` and, serialized as JSON, as
    the text block (the same object, errors included), for clients that read only ``content``."""
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(reply.envelope, ensure_ascii=False))],
        structured_content=reply.envelope,
        is_error=reply.is_error,
    )


def build_mcp_server(service: ToolService) -> Server[Any]:
    """Return the MCP server for ``service``: four tools, every call answered in-band."""
    tools = [types.Tool.model_validate(descriptor) for descriptor in DESCRIPTORS.values()]

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        reply = await service.call(params.name, params.arguments if params.arguments is not None else {})
        return tool_result(reply)

    return Server(
        SERVER["name"],
        version=_version(),
        title=SERVER["title"],
        instructions=SERVER["instructions"],
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
