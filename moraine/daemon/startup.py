"""The daemon's start-up, phase by phase in its log: how long each step between "starting" and "ready" took.

A start that stalls (a rare 40 s before "ready" was reported on a home of 200,000 records) then shows where:
``start-up: store opened and migrated in 38.20 s``. Phases cut before the log exists (securing the home) are kept
and written once the log is set up.
"""

from __future__ import annotations

import logging
import time

__all__ = ["StartupClock"]

logger = logging.getLogger("moraine.daemon")


class StartupClock:
    """Time the phases of one start: ``done(name)`` closes the phase that ran since the previous one."""

    def __init__(self) -> None:
        self._began = self._last = time.monotonic()
        self._pending: list[tuple[str, float]] = []
        self._logging = False

    def done(self, phase: str) -> float:
        """Log (or keep until the log exists) how long ``phase`` took; return the seconds."""
        now = time.monotonic()
        seconds, self._last = now - self._last, now
        if self._logging:
            logger.info("start-up: %s in %.2f s", phase, seconds)
        else:
            self._pending.append((phase, seconds))
        return seconds

    def logging_ready(self) -> None:
        """The log is set up: write the phases timed before it."""
        self._logging = True
        for phase, seconds in self._pending:
            logger.info("start-up: %s in %.2f s", phase, seconds)
        self._pending.clear()

    def total(self) -> float:
        """Return the seconds since the clock started."""
        return time.monotonic() - self._began
