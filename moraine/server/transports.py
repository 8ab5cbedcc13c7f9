"""Run the server over stdio (one client, the agent that launched us) or HTTP (MCP + facade) under uvicorn."""

from __future__ import annotations

import anyio
import uvicorn
from mcp.server.stdio import stdio_server

from moraine.server.http_app import build_http_app
from moraine.server.mcp_app import build_mcp_server
from moraine.server.service import ToolService

__all__ = ["run_http", "run_stdio"]


async def _serve_stdio(service: ToolService) -> None:
    server = build_mcp_server(service)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def run_stdio(service: ToolService) -> None:
    """Serve MCP on stdin/stdout until the client closes stdin."""
    anyio.run(_serve_stdio, service)


def run_http(service: ToolService, host: str, port: int) -> None:
    """Serve MCP at /mcp and the HTTP facade on ``host:port`` until interrupted."""
    app = build_http_app(service, build_mcp_server(service), host=host)
    uvicorn.run(app, host=host, port=port, log_level="warning")
