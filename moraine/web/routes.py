"""Serve the page: ``GET /`` is the app shell, ``GET /web/<name>`` its static files (read once, from package data).

``/web/harnesses.js`` is written when the routes are built, from the harness registry: every registered harness
(its value and display name) and every standard source name, so the page's filters offer all of them, including a
harness a separate package registers.

The page is a plain client of the facade (``POST /v1/tools/<tool>``), so it shows exactly what agents receive;
its transcript download (``export``, ``GET /v1/export/<id>``) is read through the same tools. It
loads nothing from other origins; the Content-Security-Policy says so, and forbids inline script and style so that
no text from the store can ever run as code.

The shell and its files hold no data, and the gate serves them without credentials (a browser loads them by
navigation, which cannot carry the page token); every request for data is the page's own ``fetch``, which sends
the token the tab was given at login (``moraine.access.login``).
"""

from __future__ import annotations

import json
from importlib import resources

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from moraine.config import default_sources
from moraine.harnesses.registry import harnesses

__all__ = ["ASSET_PREFIX", "PAGE_PATH", "web_routes"]

ASSET_PREFIX = "/web"
PAGE_PATH = "/"
_INDEX = "index.html"
_HARNESSES = "harnesses.js"
_MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
}
_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
_HEADERS = {
    "Content-Security-Policy": _POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def _load_assets() -> dict[str, tuple[bytes, str]]:
    """Return every shipped static file by name, with its media type."""
    assets: dict[str, tuple[bytes, str]] = {}
    for entry in (resources.files("moraine.web") / "static").iterdir():
        suffix = entry.name[entry.name.rfind(".") :] if "." in entry.name else ""
        if entry.is_file() and suffix in _MEDIA_TYPES:
            assets[entry.name] = (entry.read_bytes(), _MEDIA_TYPES[suffix])
    if _INDEX not in assets:
        raise FileNotFoundError(f"moraine.web package data is missing static/{_INDEX}")
    assets[_HARNESSES] = (_harnesses_module().encode(), _MEDIA_TYPES[".js"])
    return assets


def _harnesses_module() -> str:
    """Return the script module that lists every registered harness and standard source, for the filters."""
    labels = {name: declared.display_name for name, declared in harnesses().items()}
    sources = sorted(
        {source.name for platform in ("linux", "darwin") for source in default_sources(platform)}
    )
    return (
        "// Written by moraine.web.routes from the harness registry: every registered harness and standard source.\n"
        f"export const HARNESS_LABELS = Object.freeze({json.dumps(labels, ensure_ascii=True)});\n"
        "export const HARNESSES = Object.freeze(Object.keys(HARNESS_LABELS));\n"
        f"export const SOURCES = Object.freeze({json.dumps(sources, ensure_ascii=True)});\n"
    )


def web_routes() -> list[Route]:
    """Return the page's routes: the shell at ``/`` and its files under ``/web/``."""
    assets = _load_assets()

    async def index(request: Request) -> Response:
        body, media_type = assets[_INDEX]
        return Response(body, media_type=media_type, headers=_HEADERS)

    async def asset(request: Request) -> Response:
        found = assets.get(request.path_params["name"])
        if found is None:
            return PlainTextResponse("not found", status_code=404, headers=_HEADERS)
        body, media_type = found
        return Response(body, media_type=media_type, headers=_HEADERS)

    return [
        Route(PAGE_PATH, index, methods=["GET"]),
        Route(ASSET_PREFIX + "/{name}", asset, methods=["GET"]),
    ]
