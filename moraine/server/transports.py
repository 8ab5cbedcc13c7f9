"""Run the server over stdio (one client, the agent that launched us); HTTP is the daemon's (``moraine.daemon``)."""

from __future__ import annotations

import anyio
from mcp.server.stdio import stdio_server

from moraine.server.mcp_app import build_mcp_server
from moraine.server.service import ToolService

__all__ = ["run_stdio"]


async def _serve_stdio(service: ToolService) -> None:
    server = build_mcp_server(service)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def run_stdio(service: ToolService) -> None:
    """Serve MCP on stdin/stdout until the client closes stdin."""
    anyio.run(_serve_stdio, service)
