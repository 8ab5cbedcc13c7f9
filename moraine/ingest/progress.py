"""Progress of an ingest pass: files, events, rate and an estimate of the time left, for terminals and status."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = ["PassProgress", "Progress", "describe", "format_duration"]

Progress = Callable[[int, int, int], None]  # (files done, files total, events so far)


class PassProgress:
    """Follows one pass through its ``Progress`` callback (``update``); readable from any thread.

    The time left is estimated from the files still to read at the pace of the files read so far.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._started = clock()
        self.files_done = 0
        self.files_total = 0
        self.events = 0
        self.finished = False
        self._finished_at: float | None = None

    def update(self, done: int, total: int, events: int) -> None:
        """Record where the pass is (the signature of ``Progress``)."""
        with self._lock:
            self.files_done, self.files_total, self.events = done, total, events

    def finish(self) -> None:
        """Mark the pass complete."""
        with self._lock:
            self.finished = True
            self._finished_at = self._clock()

    def snapshot(self) -> dict[str, Any]:
        """Return files, events, events per second and the seconds left (None until a file is done)."""
        with self._lock:
            now = self._finished_at if self._finished_at is not None else self._clock()
            elapsed = max(now - self._started, 1e-9)
            done, total, events = self.files_done, self.files_total, self.events
            finished = self.finished
        left = total - done
        eta: float | None = None  # no estimate before the first file is done
        if finished or (total and left <= 0):
            eta = 0.0
        elif done:
            eta = elapsed / done * left
        return {
            "state": "done" if finished else "running",
            "files_done": done,
            "files_total": total,
            "events": events,
            "events_per_second": round(events / elapsed, 1),
            "elapsed_seconds": round(elapsed, 1),
            "eta_seconds": None if eta is None else round(eta, 1),
        }

    def line(self) -> str:
        """Return a one-line description: ``120/591 files · 20,000 events · 2,400 events/s · 1 min 10 s left``."""
        return describe(self.snapshot())


def describe(snapshot: dict[str, Any]) -> str:
    """Return the one-line description of a ``PassProgress.snapshot``."""
    parts = [
        f"{snapshot['files_done']:,}/{snapshot['files_total']:,} files",
        f"{snapshot['events']:,} events",
        f"{snapshot['events_per_second']:,.0f} events/s",
    ]
    if snapshot["state"] == "done":
        parts.append(f"done in {format_duration(snapshot['elapsed_seconds'])}")
    elif snapshot["eta_seconds"] is not None:
        parts.append(f"{format_duration(snapshot['eta_seconds'])} left")
    return " · ".join(parts)


def format_duration(seconds: float) -> str:
    """Return ``seconds`` as ``45 s``, ``3 min 5 s`` or ``2 h 10 min``."""
    whole = int(round(seconds))
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"
