"""The daemon's call runner: admission, and cancellation that stops queries.

Calls share one read store whose connections number ``max_concurrent``: a lone call runs its independent reads at
once, and however many calls run, at most ``max_concurrent`` statements do (calls are CPU-bound; more at once would
only slow the ingest that keeps the index fresh).

A cancelled call (MCP ``notifications/cancelled`` or a relay's disconnect) sets its tag's cancel flag, so no further
statement starts, and kills its running statement with ``KILL QUERY`` on a separate control connection (chDB and a
ClickHouse server both list running statements in ``system.processes``). The slot is released only once the
worker thread has finished, so ``max_concurrent`` bounds real work, cancelled or not.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import anyio

from moraine.handler_api import Deps
from moraine.daemon.activity import Activity
from moraine.daemon.admission import Admission
from moraine.errors import StoreError
from moraine.server.service import ToolReply
from moraine.store.client import Store
from moraine.store.kill import kill_tagged
from moraine.store.querytag import QueryTag, current_tag

__all__ = ["CancellingRunner"]

logger = logging.getLogger("moraine.daemon")
_KILL_EVERY_SECONDS = 0.25
_GIVE_UP_SECONDS = 60.0
_SLOW_CALL_SECONDS = 2.0


class CancellingRunner:
    """A ``ToolService`` runner: admitted calls run on the service's store; cancellation stops them."""

    def __init__(self, admission: Admission, control: Store, activity: Activity | None = None) -> None:
        self.admission = admission
        self.control = control
        self.activity = activity or Activity()
        self.cancelled_calls = 0

    async def __call__(self, work: Callable[[Deps], ToolReply], deps: Deps) -> ToolReply:
        """Run ``work`` once admitted (raises BusyError when the queue is full)."""
        self.activity.call_started()
        arrived = time.monotonic()
        try:
            async with self.admission.slot():
                admitted = time.monotonic()
                try:
                    return await self._run(work, deps)
                finally:
                    done = time.monotonic()
                    if done - arrived > _SLOW_CALL_SECONDS:
                        logger.info(
                            "slow call: %.2f s waiting for a slot, %.2f s running",
                            admitted - arrived,
                            done - admitted,
                        )
        finally:
            self.activity.call_finished()

    async def _run(self, work: Callable[[Deps], ToolReply], deps: Deps) -> ToolReply:
        tag = QueryTag()
        finished = threading.Event()

        def in_thread() -> ToolReply:
            token = current_tag.set(tag)
            try:
                return work(deps)
            finally:
                current_tag.reset(token)
                finished.set()

        try:
            return await anyio.to_thread.run_sync(in_thread, abandon_on_cancel=True)
        except anyio.get_cancelled_exc_class():
            with anyio.CancelScope(shield=True):
                self.cancelled_calls += 1
                tag.cancelled.set()
                await anyio.to_thread.run_sync(self._stop, tag, finished)
            raise

    def _stop(self, tag: QueryTag, finished: threading.Event) -> None:
        """Kill the call's statements until its thread has finished (bounded)."""
        deadline = time.monotonic() + _GIVE_UP_SECONDS
        while not finished.is_set():
            try:
                kill_tagged(self.control, tag)
            except StoreError as exc:
                logger.warning("could not kill the statements of a cancelled call: %s", exc.message)
            if finished.wait(_KILL_EVERY_SECONDS):
                return
            if time.monotonic() > deadline:
                logger.error("a cancelled call is still running after %.0f s; leaving it", _GIVE_UP_SECONDS)
                return
