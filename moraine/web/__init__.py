"""The web page: static HTML/CSS/JS (``static/``) served beside the HTTP facade, whose client it is."""

from __future__ import annotations

from moraine.web.routes import ASSET_PREFIX, PAGE_PATH, web_routes

__all__ = ["ASSET_PREFIX", "PAGE_PATH", "web_routes"]
