"""``GET /v1/daemon/usage``: tokens and cost over a window (``moraine.usage``), for ``moraine usage`` while the daemon
holds the store, and for the web page's Usage view.

The query string is parsed by ``moraine.usage.request`` (the CLI's options go through the same parse); a request it
refuses is answered 400 with the reason, a store that does not answer 503.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
import httpx2 as httpx
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from moraine.config import HARNESSES
from moraine.daemon.client import DaemonUnreachable
from moraine.daemon.routes import USAGE_PATH
from moraine.errors import StoreError
from moraine.store.client import Store
from moraine.usage.request import UsageRequest, UsageRequestError, parse_usage_request
from moraine.usage.summary import usage_summary

__all__ = ["UsageRefused", "fetch_usage", "usage_route"]


class UsageRefused(ValueError):
    """The daemon refused the request (400): the message is its reason."""


def usage_route(store: Store) -> Route:
    """Return ``GET /v1/daemon/usage``, answering from ``store``."""

    async def usage(request: Request) -> Response:
        fields: dict[str, list[str]] = {}
        for name, value in request.query_params.multi_items():
            fields.setdefault(name, []).append(value)
        try:
            wanted = parse_usage_request(fields, datetime.now(UTC), tuple(HARNESSES))
        except UsageRequestError as exc:
            return JSONResponse({"detail": str(exc)}, status_code=400)
        try:
            summary = await anyio.to_thread.run_sync(usage_summary, store, wanted)
        except StoreError as exc:
            return JSONResponse({"detail": exc.message}, status_code=503)
        return JSONResponse(summary)

    return Route(USAGE_PATH, usage, methods=["GET"])


def fetch_usage(socket_path: Path, wanted: UsageRequest, timeout: float = 60.0) -> dict[str, Any]:
    """Ask the daemon listening on ``socket_path`` for the summary.

    Raises:
        UsageRefused: it refused the request (the message says why).
        DaemonUnreachable: it did not answer with a summary.
    """
    try:
        with httpx.Client(transport=httpx.HTTPTransport(uds=str(socket_path)), timeout=timeout) as client:
            response = client.get(f"http://moraine.daemon{USAGE_PATH}", params=wanted.query())
            if response.status_code == 400:
                raise UsageRefused(str(response.json().get("detail", "the daemon refused the request")))
            response.raise_for_status()
            answer: dict[str, Any] = response.json()
            return answer
    except (httpx.HTTPError, ValueError, KeyError, TypeError, OSError) as exc:
        if isinstance(exc, UsageRefused):
            raise
        raise DaemonUnreachable(f"the daemon on {socket_path} did not report usage: {exc}") from exc
