"""Tool calls running in this process, and the background work that stands aside while any runs.

The server wraps each call's work in ``running_call()``; a worker registered with ``stand_aside`` (the vectorizer's
embedder process) is paused when the first call starts and resumed when the last one ends, so calls never share the
CPU with it. Between calls it runs at full speed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

__all__ = ["Pausable", "running_call", "stand_aside"]


class Pausable(Protocol):
    def pause(self) -> None: ...

    def resume(self) -> None: ...


_lock = threading.Lock()
_running = 0
_aside: list[Pausable] = []


def stand_aside(worker: Pausable) -> Callable[[], None]:
    """Pause ``worker`` whenever calls run (at once if some run now); return the function that lets it go."""
    with _lock:
        _aside.append(worker)
        if _running:
            worker.pause()

    def release() -> None:
        with _lock:
            if worker in _aside:
                _aside.remove(worker)
                worker.resume()

    return release


@contextmanager
def running_call() -> Iterator[None]:
    """Count a call as running for the duration of the block."""
    global _running
    with _lock:
        _running += 1
        if _running == 1:
            for worker in _aside:
                worker.pause()
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0:
                for worker in _aside:
                    worker.resume()
