"""File locks (``fcntl.flock``): the owner lock a daemon holds for life, the spawn lock starters take in turn.

The kernel drops a flock when its holder dies, so a crashed daemon or starter never leaves a stale lock.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

__all__ = ["FileLock", "LockTimeout"]

_POLL_SECONDS = 0.02


class LockTimeout(Exception):
    """The lock was not acquired before the deadline."""


class FileLock:
    """An exclusive lock on one file; ``acquire`` with a bounded wait, ``try_acquire`` without waiting."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def try_acquire(self) -> bool:
        """Take the lock if it is free; return whether we hold it."""
        if self._fd is not None:
            return True
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def acquire(self, timeout: float) -> None:
        """Take the lock, waiting at most ``timeout`` seconds.

        Raises:
            LockTimeout: another process held it for the whole wait.
        """
        deadline = time.monotonic() + timeout
        while not self.try_acquire():
            if time.monotonic() >= deadline:
                raise LockTimeout(f"{self.path} stayed locked for {timeout:.0f} s")
            time.sleep(_POLL_SECONDS)  # flock has no timed wait: poll within the deadline

    def held_elsewhere(self) -> bool:
        """Return whether another process holds the lock right now (we do not keep it)."""
        if self._fd is not None or not self.path.exists():
            return False
        if not self.try_acquire():
            return True
        self.release()
        return False

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> FileLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
