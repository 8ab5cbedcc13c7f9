"""The per-install HTTP secret: every loopback TCP request to the daemon must carry it (the Unix socket needs none).

It lives in ``$MORAINE_HOME/run/http-secret``, mode 0600 inside the 0700 run directory, so only the installing user
can read it. A missing, empty or short file (a crash or a full disk while writing it) is replaced by a fresh one;
a new file appears in one step (written aside, then linked or renamed into place), so no reader sees half of it.
"""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path

from moraine.secret_file import ensure_secret_file

__all__ = ["MIN_SECRET_CHARS", "SecretFile", "ensure_secret", "secret_matches"]

MIN_SECRET_CHARS = 32
_SECRET_BYTES = 32  # 43 url-safe characters


def _read(path: Path) -> str | None:
    """Return the secret in ``path``, or None when it is missing, unreadable as text, or too short."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if len(text) >= MIN_SECRET_CHARS else None


def ensure_secret(path: Path) -> str:
    """Return the secret stored in ``path``, first creating or replacing it when missing, empty or short.

    Raises:
        OSError: the file cannot be written.
    """
    return ensure_secret_file(path, _read, lambda: secrets.token_urlsafe(_SECRET_BYTES) + "\n")


def secret_matches(given: str, expected: str) -> bool:
    """Return whether ``given`` is the secret (compared in constant time)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), expected.encode("ascii"))


class SecretFile:
    """The secret as the daemon checks it: read once, read again whenever the file is replaced."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._value = ensure_secret(path)
        self._stamp = self._stat()

    def _stat(self) -> tuple[int, int, int] | None:
        try:
            info = os.stat(self.path)
        except OSError:
            return None
        return info.st_ino, info.st_mtime_ns, info.st_size

    def current(self) -> str:
        """Return the secret in force (the last good one when the file has gone or is broken)."""
        stamp = self._stat()
        if stamp is not None and stamp != self._stamp:
            found = _read(self.path)
            if found is not None:
                self._value = found
                self._stamp = stamp
        return self._value
