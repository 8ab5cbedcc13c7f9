"""Run a request's work only while its client is still there: a disconnect cancels the work (and frees its slot)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import anyio
from starlette.requests import Request

__all__ = ["CLIENT_CLOSED", "unless_disconnected"]

CLIENT_CLOSED = 499  # the status logged for a request whose client left first (nobody receives it)
T = TypeVar("T")


async def unless_disconnected(request: Request, work: Callable[[], Awaitable[T]]) -> T | None:
    """Return ``work()``'s result, or None when the client disconnects first (``work`` is then cancelled).

    The request body must already have been read: this listens for what the client sends next.
    """
    result: list[T] = []
    async with anyio.create_task_group() as group:

        async def answer() -> None:
            result.append(await work())
            group.cancel_scope.cancel()

        async def watch_disconnect() -> None:
            while (await request.receive())["type"] != "http.disconnect":
                pass
            group.cancel_scope.cancel()  # the caller is gone: cancel its work

        group.start_soon(answer)
        group.start_soon(watch_disconnect)
    return result[0] if result else None
