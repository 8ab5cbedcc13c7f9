"""What the daemon is doing for its clients: attached relays and calls in flight, for the idle exit."""

from __future__ import annotations

import time

__all__ = ["Activity"]


class Activity:
    """Counters touched from the daemon's event loop only."""

    def __init__(self) -> None:
        self.attached = 0
        self.in_flight = 0
        self.calls = 0
        self._quiet_since = time.monotonic()

    def attach(self) -> None:
        self.attached += 1

    def detach(self) -> None:
        self.attached -= 1
        self._touch()

    def call_started(self) -> None:
        self.in_flight += 1
        self.calls += 1

    def call_finished(self) -> None:
        self.in_flight -= 1
        self._touch()

    def idle_seconds(self) -> float:
        """Return how long nothing has been attached or running (0 while something is)."""
        if self.attached or self.in_flight:
            return 0.0
        return time.monotonic() - self._quiet_since

    def touch(self) -> None:
        """Start the quiet period now (the daemon calls it once it is ready)."""
        self._quiet_since = time.monotonic()

    def _touch(self) -> None:
        self.touch()
