"""The daemon's ASGI app: MCP over streamable HTTP at /mcp, the HTTP facade, and the endpoints relays use, all
behind one gate (``moraine.access``: Host, Origin, the per-install secret on TCP, JSON bodies of at most 4 MiB).

- ``GET /v1/daemon/health``: who is serving (pid, version, readiness, backfill, admission counters).
- ``POST /v1/daemon/call``: ``{"tool", "arguments", "launch_dir"}`` -> ``{"envelope", "is_error"}``; the call is
  cancelled when the caller disconnects before the answer (the relay disconnects when its client cancels).
  ``"project_only": true`` restricts the call to the launch directory's project (a ``--project-only`` relay).
- ``GET /v1/daemon/attach``: a response that stays open while a relay lives; attached relays keep the daemon up.
- ``GET /v1/daemon/status?errors=N``: the store report (counts, coverage, recent ingest errors) for the CLI.
- ``GET /v1/daemon/agents``: the agents found on this machine with their session counts, for the web page
  (``moraine.daemon.agents``: one grouped count, kept for half a minute).
- ``POST /v1/daemon/hook``: what an agent's hook prints (``moraine.daemon.hook_route``).
- ``GET /v1/daemon/usage?start=&end=&by=&harness=&project=&session=``: tokens and cost (``moraine.usage``), for
  ``moraine usage`` and the page's Usage view.
- ``POST /v1/daemon/forget``: preview or forget sessions (``moraine.ingest.forget_request``), for ``moraine
  forget`` and the web page's session view.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp

from moraine.access import Access
from moraine.daemon.activity import Activity
from moraine.daemon.admission import Admission
from moraine.daemon.agents import AgentsCache, agents_route
from moraine.daemon.report import StoreReport
from moraine.daemon.usage import usage_route
from moraine.daemon.routes import ATTACH_PATH, CALL_PATH, FORGET_PATH, HEALTH_PATH, STATUS_PATH
from moraine.errors import ConfigError, StoreError
from moraine.ingest.forget_request import ForgetRequest, SelectionChanged, parse_forget_request
from moraine.projects.floor import resolve_floor
from moraine.store.client import Store
from moraine.store.reads.floor import ProjectFloor
from moraine.server.disconnect import CLIENT_CLOSED, unless_disconnected
from moraine.server.http_app import build_http_app
from moraine.server.mcp_app import build_mcp_server
from moraine.server.service import ToolService

__all__ = ["build_daemon_app"]


def build_daemon_app(
    service: ToolService,
    admission: Admission,
    activity: Activity,
    stopping: anyio.Event,
    describe: Callable[[], dict[str, Any]],
    report: Callable[[int], StoreReport],
    access: Access,
    host: str = "127.0.0.1",
    forgetter: Callable[[ForgetRequest], dict[str, Any]] | None = None,
    agents: AgentsCache | None = None,
    hooks: Route | None = None,
    usage: Store | None = None,
) -> ASGIApp:
    """Return the daemon's app, behind the gate; ``describe`` supplies the health document's identity fields."""

    async def health(request: Request) -> Response:
        body = {
            **describe(),
            "running": admission.running,
            "queued": admission.queued,
            "attached": activity.attached,
        }
        return JSONResponse(body)

    async def call(request: Request) -> Response:
        try:
            body: Any = json.loads(await request.body())
            tool, arguments, launch_dir = _call_fields(body)
            floor = _call_floor(body, launch_dir)
        except RecursionError:
            return JSONResponse({"detail": "body is nested too deeply"}, status_code=400)
        except (ValueError, UnicodeDecodeError) as exc:
            return JSONResponse({"detail": str(exc)}, status_code=400)
        reply = await unless_disconnected(
            request, lambda: service.call(tool, arguments, launch_dir=launch_dir, floor=floor)
        )
        if reply is None:
            return Response(status_code=CLIENT_CLOSED)
        return JSONResponse({"envelope": reply.envelope, "is_error": reply.is_error})

    async def attach(request: Request) -> Response:
        async def hold() -> AsyncIterator[bytes]:
            activity.attach()
            try:
                yield json.dumps({"pid": os.getpid()}).encode() + b"\n"
                await stopping.wait()
            finally:
                activity.detach()

        return StreamingResponse(hold(), media_type="application/x-ndjson")

    async def status(request: Request) -> Response:
        try:
            limit = max(0, min(1000, int(request.query_params.get("errors", "10"))))
        except ValueError:
            return JSONResponse({"detail": "errors must be an integer"}, status_code=400)
        try:
            found = await anyio.to_thread.run_sync(report, limit)
        except StoreError as exc:
            return JSONResponse({"detail": exc.message}, status_code=503)
        return JSONResponse(found.to_json())

    async def forget(request: Request) -> Response:
        if forgetter is None:
            return JSONResponse({"detail": "this server cannot forget sessions"}, status_code=503)
        try:
            wanted = parse_forget_request(json.loads(await request.body()))
        except RecursionError:
            return JSONResponse({"detail": "body is nested too deeply"}, status_code=400)
        except (ValueError, UnicodeDecodeError) as exc:
            return JSONResponse({"detail": str(exc)}, status_code=400)
        if wanted.criteria.empty():
            return JSONResponse({"detail": "name the sessions to forget"}, status_code=400)
        try:
            answer = await anyio.to_thread.run_sync(forgetter, wanted)
        except StoreError as exc:
            return JSONResponse({"detail": exc.message}, status_code=503)
        except SelectionChanged as exc:
            return JSONResponse({"detail": str(exc)}, status_code=409)
        return JSONResponse(answer)

    routes = [
        Route(HEALTH_PATH, health, methods=["GET"]),
        Route(FORGET_PATH, forget, methods=["POST"]),
        Route(CALL_PATH, call, methods=["POST"]),
        Route(ATTACH_PATH, attach, methods=["GET"]),
        Route(STATUS_PATH, status, methods=["GET"]),
    ]
    if agents is not None:
        routes.append(agents_route(agents))
    if hooks is not None:
        routes.append(hooks)
    if usage is not None:
        routes.append(usage_route(usage))
    return build_http_app(service, build_mcp_server(service), access, host, routes)


def _call_fields(body: Any) -> tuple[str, Any, Path | None]:
    """Return (tool, arguments, launch_dir) of a relay call body.

    Raises:
        ValueError: the body is not a call object.
    """
    if not isinstance(body, dict) or not isinstance(body.get("tool"), str):
        raise ValueError("body must be an object with a string 'tool'")
    raw_dir = body.get("launch_dir")
    if raw_dir is not None and (not isinstance(raw_dir, str) or not os.path.isabs(raw_dir)):
        raise ValueError("launch_dir must be an absolute path or null")
    return body["tool"], body.get("arguments", {}), Path(raw_dir) if raw_dir else None


def _call_floor(body: dict[str, Any], launch_dir: Path | None) -> ProjectFloor | None:
    """Return the project floor a ``project_only`` call asks for (None when it does not).

    Raises:
        ValueError: ``project_only`` is not a boolean, or the launch directory's project cannot be established.
    """
    project_only = body.get("project_only", False)
    if not isinstance(project_only, bool):
        raise ValueError("project_only must be a boolean")
    if not project_only:
        return None
    if launch_dir is None:
        raise ValueError("project_only needs a launch_dir")
    try:
        return resolve_floor(str(launch_dir))
    except ConfigError as exc:
        raise ValueError(str(exc)) from exc
