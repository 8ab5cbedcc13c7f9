"""Admission: at most N calls run, up to M wait in FIFO order, the next is busy; cancelled waiters leave the line."""

from __future__ import annotations

import anyio
import pytest

from moraine.daemon.admission import Admission
from moraine.errors import BusyError


async def _hold(admission: Admission, name: str, order: list[str], release: anyio.Event) -> None:
    async with admission.slot():
        order.append(name)
        await release.wait()


def test_calls_beyond_the_limit_wait_and_run_in_arrival_order() -> None:
    async def main() -> list[str]:
        admission = Admission(max_concurrent=2, max_queued=5)
        order: list[str] = []
        release = anyio.Event()
        async with anyio.create_task_group() as group:
            for name in "abcde":
                group.start_soon(_hold, admission, name, order, release)
                await anyio.wait_all_tasks_blocked()
            assert order == ["a", "b"]
            assert (admission.running, admission.queued) == (2, 3)
            release.set()
        assert (admission.running, admission.queued) == (0, 0)
        return order

    assert anyio.run(main) == ["a", "b", "c", "d", "e"]


def test_the_call_after_a_full_queue_is_busy_with_its_limits_in_details() -> None:
    async def main() -> BusyError:
        admission = Admission(max_concurrent=1, max_queued=2)
        release = anyio.Event()
        order: list[str] = []
        async with anyio.create_task_group() as group:
            for name in "abc":
                group.start_soon(_hold, admission, name, order, release)
                await anyio.wait_all_tasks_blocked()
            with pytest.raises(BusyError) as caught:
                async with admission.slot():
                    pass
            release.set()
        return caught.value

    error = anyio.run(main)
    assert error.code == "busy"
    assert error.details["max_concurrent"] == 1 and error.details["max_queued"] == 2
    assert error.details["retryable"] is True


def test_a_cancelled_waiter_leaves_the_queue_and_the_next_one_gets_the_slot() -> None:
    async def main() -> list[str]:
        admission = Admission(max_concurrent=1, max_queued=3)
        order: list[str] = []
        release = anyio.Event()
        async with anyio.create_task_group() as group:
            group.start_soon(_hold, admission, "a", order, release)
            await anyio.wait_all_tasks_blocked()
            with anyio.CancelScope() as doomed:
                async with anyio.create_task_group() as inner:
                    inner.start_soon(_hold, admission, "b", order, release)
                    await anyio.wait_all_tasks_blocked()
                    assert admission.queued == 1
                    doomed.cancel()
            assert admission.queued == 0
            group.start_soon(_hold, admission, "c", order, release)
            await anyio.wait_all_tasks_blocked()
            release.set()
        assert admission.running == 0
        return order

    assert anyio.run(main) == ["a", "c"]


def test_zero_queue_means_busy_as_soon_as_every_slot_is_taken() -> None:
    async def main() -> None:
        admission = Admission(max_concurrent=1, max_queued=0)
        release = anyio.Event()
        order: list[str] = []
        async with anyio.create_task_group() as group:
            group.start_soon(_hold, admission, "a", order, release)
            await anyio.wait_all_tasks_blocked()
            with pytest.raises(BusyError):
                async with admission.slot():
                    pass
            release.set()

    anyio.run(main)
