"""Talk to the daemon over its Unix socket: health (sync, for the launcher), calls and attach (async, for the relay)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx2 as httpx

from moraine.access.login import TICKET_PATH
from moraine.daemon.routes import ATTACH_PATH, CALL_PATH, FORGET_PATH, HEALTH_PATH

__all__ = ["DaemonConnection", "DaemonUnreachable", "forget_via_daemon", "health", "login_path"]

_BASE = "http://moraine.daemon"
_HEALTH_TIMEOUT = 2.0
_CONNECT_TIMEOUT = 5.0


class DaemonUnreachable(Exception):
    """The daemon did not answer on its socket."""


def _ask(socket_path: Path, method: str, path: str, timeout: float, what: str, key: str, kind: type) -> Any:
    """Return the JSON object the daemon answers on its socket, checking that ``key`` holds a ``kind``.

    Raises:
        DaemonUnreachable: nothing answers on ``socket_path``, or the answer lacks ``key``.
    """
    try:
        with httpx.Client(transport=httpx.HTTPTransport(uds=str(socket_path)), timeout=timeout) as client:
            response = client.request(method, _BASE + path, json={} if method == "POST" else None)
            response.raise_for_status()
            body: Any = response.json()
    except (httpx.HTTPError, ValueError, OSError) as exc:
        raise DaemonUnreachable(f"no daemon answers on {socket_path}: {exc}") from exc
    if not isinstance(body, dict) or not isinstance(body.get(key), kind):
        raise DaemonUnreachable(f"unexpected {what} answer on {socket_path}: {body!r}")
    return body


def health(socket_path: Path, timeout: float = _HEALTH_TIMEOUT) -> dict[str, Any]:
    """Return the daemon's health document.

    Raises:
        DaemonUnreachable: nothing answers on ``socket_path``, or the answer is not a health document.
    """
    body: dict[str, Any] = _ask(socket_path, "GET", HEALTH_PATH, timeout, "health", "pid", int)
    return body


def login_path(socket_path: Path, timeout: float = _HEALTH_TIMEOUT) -> str:
    """Return a one-time login path (``/auth?token=...``) for the web page, issued by the daemon on its socket.

    Raises:
        DaemonUnreachable: nothing answers on ``socket_path``, or the answer is not a login path.
    """
    return str(_ask(socket_path, "POST", TICKET_PATH, timeout, "login", "path", str)["path"])


_FORGET_TIMEOUT = 600.0  # mutations over a large store, then the wait for the old parts to leave the disk


def forget_via_daemon(socket_path: Path, body: dict[str, Any]) -> dict[str, Any]:
    """Send a forget request (``moraine.ingest.forget_request``) to the daemon; return its answer.

    Raises:
        DaemonUnreachable: the daemon did not answer, or refused the request (the message says why).
    """
    try:
        with httpx.Client(
            transport=httpx.HTTPTransport(uds=str(socket_path)), timeout=_FORGET_TIMEOUT
        ) as client:
            response = client.post(_BASE + FORGET_PATH, json=body)
            answer: Any = response.json()
    except (httpx.HTTPError, ValueError, OSError) as exc:
        raise DaemonUnreachable(f"no daemon answers on {socket_path}: {exc}") from exc
    if (
        response.status_code != 200
        or not isinstance(answer, dict)
        or not isinstance(answer.get("sessions"), list)
    ):
        detail = answer.get("detail") if isinstance(answer, dict) else answer
        raise DaemonUnreachable(f"the daemon refused to forget: {detail}")
    return answer


class DaemonConnection:
    """An async client on the daemon's socket: no read deadline (calls take as long as they take)."""

    def __init__(self, socket_path: Path, project_only: bool = False) -> None:
        self.socket_path = socket_path
        self.project_only = project_only  # every call asks for the launch project's floor
        timeout = httpx.Timeout(None, connect=_CONNECT_TIMEOUT)
        self._client = httpx.AsyncClient(
            transport=httpx.AsyncHTTPTransport(uds=str(socket_path)), timeout=timeout, base_url=_BASE
        )

    async def call(self, tool: str, arguments: Any) -> tuple[dict[str, Any], bool]:
        """Forward one tool call with this process's launch directory; return (envelope, is_error).

        Raises:
            DaemonUnreachable: the daemon is gone or answered something that is not a reply.
        """
        body = {"tool": tool, "arguments": arguments, "launch_dir": os.getcwd()}
        if self.project_only:
            body["project_only"] = True
        try:
            response = await self._client.post(CALL_PATH, json=body)
            response.raise_for_status()
            reply: Any = response.json()
        except (httpx.HTTPError, ValueError, OSError) as exc:
            raise DaemonUnreachable(f"the daemon did not answer {tool}: {exc}") from exc
        if not isinstance(reply, dict) or not isinstance(reply.get("envelope"), dict):
            raise DaemonUnreachable(f"the daemon's answer to {tool} is not a reply")
        return reply["envelope"], bool(reply.get("is_error"))

    async def attach(self) -> None:
        """Stay attached (keeps a relay-started daemon up) until the daemon closes the stream or goes away."""
        try:
            async with self._client.stream("GET", ATTACH_PATH) as response:
                async for _ in response.aiter_bytes():
                    pass
        except (httpx.HTTPError, OSError):
            return

    async def aclose(self) -> None:
        await self._client.aclose()
