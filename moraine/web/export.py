"""``GET /v1/export/<id>?format=md|html``: the page's transcript download, from the exporter ``moraine export`` uses.

The transcript is read through the same ``ToolService`` every other route answers from, so it is what ``open``
returns (redacted at ingest). It is sent as an attachment: the browser saves it, never renders it in the page.
"""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from moraine.export.document import export_document
from moraine.export.formats import FORMATS, MEDIA_TYPES
from moraine.export.walk import ExportError
from moraine.server.disconnect import CLIENT_CLOSED, unless_disconnected
from moraine.server.service import ToolService

__all__ = ["EXPORT_PATH", "export_route"]

EXPORT_PATH = "/v1/export/{id}"
_STATUS = {"invalid_request": 400, "invalid_id": 400, "not_found": 404, "busy": 503, "cancelled": 499}
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


def export_route(service: ToolService) -> Route:
    """Return the download route, answering from ``service``."""

    async def download(request: Request) -> Response:
        target_id = request.path_params["id"]
        document_format = request.query_params.get("format", "md")
        if document_format not in FORMATS:
            detail = f"format must be one of {', '.join(FORMATS)}, not {document_format!r}"
            return JSONResponse({"detail": detail}, status_code=400)

        async def work() -> str | ExportError:
            try:
                return await export_document(
                    service.call, target_id, document_format, service.deps.settings.max_results
                )
            except ExportError as exc:
                return exc

        document = await unless_disconnected(request, work)  # a long walk stops when the browser goes away
        if document is None:
            return Response(status_code=CLIENT_CLOSED)
        if isinstance(document, ExportError):
            if document.envelope is None:
                return JSONResponse({"detail": document.message}, status_code=400)
            code = document.envelope["error"]["code"]
            return JSONResponse(document.envelope, status_code=_STATUS.get(code, 500))
        filename = f"moraine-{_UNSAFE_NAME.sub('-', target_id)}.{document_format}"
        return Response(
            document,
            media_type=MEDIA_TYPES[document_format],
            headers={
                "Content-Disposition": f'attachment; filename="{filename}"',
                "X-Content-Type-Options": "nosniff",
                "Cache-Control": "no-store",
            },
        )

    return Route(EXPORT_PATH, download, methods=["GET"])
