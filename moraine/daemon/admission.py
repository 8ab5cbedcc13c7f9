"""Admission: at most ``max_concurrent`` calls run at once, up to ``max_queued`` wait in FIFO order, the next is busy.

Used from one event loop (the daemon's), so plain counters suffice. A finished call hands its slot straight to the
oldest waiter, so a late arrival can never overtake the queue.
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio

from moraine.errors import BusyError

__all__ = ["Admission"]


class Admission:
    """A FIFO gate with a bounded queue."""

    def __init__(self, max_concurrent: int, max_queued: int) -> None:
        if max_concurrent < 1 or max_queued < 0:
            raise ValueError("max_concurrent must be >= 1 and max_queued >= 0")
        self.max_concurrent = max_concurrent
        self.max_queued = max_queued
        self.running = 0
        self._waiters: deque[anyio.Event] = deque()

    @property
    def queued(self) -> int:
        return len(self._waiters)

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold a running slot for the body; wait in line for one when all are taken.

        Raises:
            BusyError: every slot is taken and the queue is full.
        """
        if self.running < self.max_concurrent and not self._waiters:
            self.running += 1
        else:
            await self._wait_in_line()
        try:
            yield
        finally:
            self._release()

    async def _wait_in_line(self) -> None:
        if len(self._waiters) >= self.max_queued:
            raise BusyError(
                f"Moraine is busy: {self.running} tool calls are running and {len(self._waiters)} are waiting "
                "(the most it accepts); retry shortly",
                running=self.running,
                queued=len(self._waiters),
                max_concurrent=self.max_concurrent,
                max_queued=self.max_queued,
                retryable=True,
            )
        turn = anyio.Event()
        self._waiters.append(turn)
        try:
            await turn.wait()
        except BaseException:
            if turn.is_set():
                self._release()  # the slot was handed to us as we were cancelled: pass it on
            else:
                self._waiters.remove(turn)
            raise

    def _release(self) -> None:
        if self._waiters:
            self._waiters.popleft().set()  # the slot passes to the oldest waiter; ``running`` is unchanged
        else:
            self.running -= 1
