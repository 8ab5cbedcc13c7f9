"""Background work stands aside while tool calls run: paused by the first call, resumed after the last."""

from __future__ import annotations

import threading

from moraine.in_flight import running_call, stand_aside


class Recorder:
    def __init__(self) -> None:
        self.events: list[str] = []

    def pause(self) -> None:
        self.events.append("pause")

    def resume(self) -> None:
        self.events.append("resume")


def test_the_first_call_pauses_and_the_last_resumes() -> None:
    worker = Recorder()
    release = stand_aside(worker)
    try:
        with running_call():
            assert worker.events == ["pause"]
            with running_call():  # a second call at the same time changes nothing
                assert worker.events == ["pause"]
            assert worker.events == ["pause"]
        assert worker.events == ["pause", "resume"]
    finally:
        release()
    assert worker.events == ["pause", "resume", "resume"]  # letting go resumes (a no-op for a running worker)


def test_a_worker_registered_during_a_call_is_paused_at_once_and_released_workers_are_left_alone() -> None:
    worker = Recorder()
    with running_call():
        release = stand_aside(worker)
        assert worker.events == ["pause"]
    assert worker.events == ["pause", "resume"]
    release()
    with running_call():
        pass
    assert worker.events == ["pause", "resume", "resume"]


def test_calls_in_threads_pause_once_until_all_have_ended() -> None:
    worker = Recorder()
    release = stand_aside(worker)
    inside = threading.Barrier(4)
    leave = threading.Event()

    def call() -> None:
        with running_call():
            inside.wait()
            leave.wait()

    threads = [threading.Thread(target=call) for _ in range(3)]
    try:
        for thread in threads:
            thread.start()
        inside.wait()  # all three calls are running
        assert worker.events == ["pause"]
        leave.set()
        for thread in threads:
            thread.join()
        assert worker.events == ["pause", "resume"]
    finally:
        leave.set()
        release()
