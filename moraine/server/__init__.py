"""Moraine's server: request checking, envelopes, the MCP app, the HTTP facade, transports.

One call flows: arguments -> ``requests.check_request`` (schema, defaults, the tool's parse) -> handler (off
the event loop) -> ``envelope`` -> outgoing validation -> MCP result or HTTP response (``service.ToolService``).
"""

from __future__ import annotations

from moraine.server.service import ToolReply, ToolService

__all__ = ["ToolReply", "ToolService"]
