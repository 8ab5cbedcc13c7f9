"""A raw ASGI HTTP scope, for tests that must control ``receive`` (a disconnect) or the listener a request came on."""

from __future__ import annotations

from typing import Any

__all__ = ["http_scope"]


def http_scope(
    method: str, path: str, headers: list[tuple[bytes, bytes]], server: tuple[str, int | None]
) -> dict[str, Any]:
    """Return the scope uvicorn builds for ``method path`` on ``server`` (port None: a Unix socket)."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "server": server,
        "client": ("127.0.0.1", 50000) if server[1] is not None else None,
    }
