"""Bound what a caller without the secret can hold open: a header-read deadline and a cap per listener.

The request gate (``moraine.access.guard``) sees a request only once its headers are complete, and uvicorn's
keep-alive timer only runs between requests: a connection that sends half its headers is held forever, and
another local account held 3,000 of them. This protocol (uvicorn's h11 protocol, subclassed) adds two bounds:

- **header deadline**: a connection must complete each request's headers within ``header_seconds`` of connecting
  or of its previous response; otherwise it is closed.
- **cap on unproven connections, per listener**: a TCP connection is *unproven* until one of its requests carries
  the secret or a page token (``authorized``); each listener keeps at most ``max_unproven`` of them, and a new one past the cap
  closes the oldest (so a flood of idle connections cannot lock out a client that is about to send its secret;
  it only shortens every unproven connection's life). Connections on the Unix socket are proven from the start:
  only the user can reach it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from starlette.datastructures import Headers
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HEADER_SECONDS", "MAX_UNPROVEN", "guarded_protocol"]

HEADER_SECONDS = 10.0
MAX_UNPROVEN = 64

Listener = tuple[str, int | None] | None


def guarded_protocol(
    authorized: Callable[[Headers, int | None], bool],
    header_seconds: float = HEADER_SECONDS,
    max_unproven: int = MAX_UNPROVEN,
) -> type[H11Protocol]:
    """Return an h11 protocol class (for ``uvicorn.Config(http=...)``) enforcing both bounds."""
    unproven: dict[Listener, dict[GuardedProtocol, None]] = {}  # per listener, oldest first

    class GuardedProtocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _proven = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._proven = self.server is None or self.server[1] is None  # the user-only Unix socket
            if not self._proven:
                waiting = unproven.setdefault(self.server, {})
                while len(waiting) >= max_unproven:
                    oldest = next(iter(waiting))
                    del waiting[oldest]
                    oldest.transport.close()
                waiting[self] = None
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            unproven.get(self.server, {}).pop(self, None)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            cycle = self.cycle
            super().data_received(data)
            self._after_events(cycle)

        def on_response_complete(self) -> None:
            cycle = self.cycle
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request's headers are due in time too
            self._after_events(cycle)

        def _after_events(self, previous: Any) -> None:
            if self.cycle is previous:
                return
            self._disarm()  # a new request's headers are complete
            if not self._proven and authorized(
                Headers(raw=self.headers), self.server[1] if self.server else None
            ):
                self._proven = True
                unproven.get(self.server, {}).pop(self, None)

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(header_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.cycle is None or self.cycle.response_complete:
                self.transport.close()

    return GuardedProtocol
