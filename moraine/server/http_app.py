"""HTTP: the facade (POST /v1/tools/<tool> -> the same envelopes; GET /openapi.json) and MCP over streamable HTTP.

A facade answer is the tool's envelope, as over MCP. Its status is 200, or 4xx for every request error: 400 for a body
that is not JSON (nested too deep to parse included) or breaks the tool's published arguments schema, 422 for one
the schema accepts but the tool refuses as a bad request (``invalid_request``, ``invalid_id``,
``unsupported_event_type``: an end before its start, an event ID as ``within_id``, a cursor that fails
verification, a harness session ID no stored session has). A malformed ID or cursor, or an ``end_datetime`` of
``0000-00-00T00:00:00Z``, breaks the schema (its pattern, its date-time format), so it is a 400. The envelope
is the body either way, and the OpenAPI document publishes both statuses. A well-formed request for something
that does not exist (``not_found``) is answered in-band with 200, as over MCP.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from typing import Any

from mcp.server.lowlevel import Server
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from generated.tools import TOOLS
from moraine.access import Access, guarded
from moraine.errors import RequestError
from moraine.server.failures import error_body
from moraine.server.envelope import error_envelope
from moraine.server.disconnect import CLIENT_CLOSED, unless_disconnected
from moraine.server.requests import arguments_conform
from moraine.server.service import ToolService
from moraine.web import ASSET_PREFIX, PAGE_PATH, web_routes
from moraine.web.export import export_route

__all__ = ["MCP_PATH", "TOOL_PATH", "build_facade_app", "build_http_app", "facade_routes"]

TOOL_PATH = "/v1/tools/{tool}"
MCP_PATH = "/mcp"
_BAD_REQUEST = 400  # the body is not JSON or breaks the tool's arguments schema (published in openapi.json)
_UNPROCESSABLE = 422  # the body matches the schema but the tool refuses it as a bad request (published too)
_REQUEST_ERRORS = frozenset({"invalid_request", "invalid_id", "unsupported_event_type"})


def _openapi_text() -> str:
    return (resources.files("generated") / "openapi.json").read_text(encoding="utf-8")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _status(tool: str, arguments: Any, is_error: bool, envelope: dict[str, Any]) -> int:
    """Return a reply's status: 400 when the body breaks the schema, 422 for another request error, else 200."""
    if not is_error:
        return 200
    if not arguments_conform(tool, arguments):
        return _BAD_REQUEST
    error = envelope.get("error")
    return _UNPROCESSABLE if isinstance(error, dict) and error.get("code") in _REQUEST_ERRORS else 200


def facade_routes(service: ToolService) -> list[Route]:
    """Return the facade's routes: one POST per tool, the OpenAPI document, the web page (a facade client) and its
    transcript download."""
    openapi = _openapi_text()

    async def call(request: Request) -> Response:
        tool = request.path_params["tool"]
        if tool not in TOOLS:
            unknown = await service.call(tool, {})
            return JSONResponse(unknown.envelope, status_code=404)
        try:
            arguments: Any = json.loads(await request.body(), parse_constant=_reject_constant)
        except RecursionError:  # 200,000 nested "[" : a bad request, never a traceback
            body = error_body(
                RequestError("request body is nested too deeply to be a tool's arguments"), tool
            )
            return JSONResponse(error_envelope(tool, {}, body, [], 0), status_code=_BAD_REQUEST)
        except (ValueError, UnicodeDecodeError) as exc:
            body = error_body(RequestError(f"request body must be a JSON object: {exc}"), tool)
            return JSONResponse(error_envelope(tool, {}, body, [], 0), status_code=_BAD_REQUEST)
        reply = await unless_disconnected(request, lambda: service.call(tool, arguments))
        if reply is None:
            return Response(status_code=CLIENT_CLOSED)
        # The envelope is the answer either way; the status also tells HTTP clients their body broke the schema.
        return JSONResponse(
            reply.envelope, status_code=_status(tool, arguments, reply.is_error, reply.envelope)
        )

    async def openapi_document(request: Request) -> Response:
        return Response(openapi, media_type="application/json")

    return [
        Route(TOOL_PATH, call, methods=["POST"]),
        Route("/openapi.json", openapi_document, methods=["GET"]),
        *web_routes(),
        export_route(service),
    ]


def build_facade_app(service: ToolService) -> Starlette:
    """Return the HTTP facade alone, ungated (no MCP endpoint): what tests and schemathesis drive in-process.

    Never serve it on a socket: ``build_http_app`` is what listens.
    """
    return Starlette(routes=facade_routes(service))


def build_http_app(
    service: ToolService,
    server: Server[Any],
    access: Access,
    host: str = "127.0.0.1",
    routes: Sequence[Route] = (),
) -> ASGIApp:
    """Return MCP over streamable HTTP at /mcp, the facade, the login routes and ``routes``, behind the gate."""
    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        host=host,
        custom_starlette_routes=[*facade_routes(service), *access.routes(), *routes],
    )
    return guarded(app, access, host, page_paths=[PAGE_PATH], page_folders=[ASSET_PREFIX + "/"])
