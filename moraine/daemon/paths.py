"""Where the daemon keeps its files under ``$MORAINE_HOME``: a user-only run directory and the log directory."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DaemonPaths"]

# AF_UNIX paths are limited to 108 bytes on Linux (104 on macOS); stay under the smaller one.
_MAX_SOCKET_PATH = 103


@dataclass(frozen=True, slots=True)
class DaemonPaths:
    """The daemon's files for one Moraine home."""

    home: Path

    @property
    def run_dir(self) -> Path:
        return self.home / "run"

    @property
    def socket(self) -> Path:
        return self.run_dir / "daemon.sock"

    @property
    def state(self) -> Path:
        return self.run_dir / "daemon.json"

    @property
    def owner_lock(self) -> Path:
        return self.run_dir / "daemon.lock"

    @property
    def spawn_lock(self) -> Path:
        return self.run_dir / "spawn.lock"

    @property
    def http_secret(self) -> Path:
        """The per-install secret every loopback TCP request must carry (``moraine.access.secret``)."""
        return self.run_dir / "http-secret"

    @property
    def log_dir(self) -> Path:
        return self.home / "logs"

    @property
    def log(self) -> Path:
        return self.log_dir / "daemon.log"

    def prepare(self) -> None:
        """Create the run directory (mode 0700, tightened if it exists) and the log directory."""
        self.home.mkdir(parents=True, exist_ok=True)
        self.run_dir.mkdir(mode=0o700, exist_ok=True)
        os.chmod(self.run_dir, 0o700)
        self.log_dir.mkdir(exist_ok=True)

    def socket_path_problem(self) -> str | None:
        """Return why the socket path cannot be used (too long for AF_UNIX), or None."""
        length = len(os.fsencode(self.socket))
        if length > _MAX_SOCKET_PATH:
            return (
                f"socket path {self.socket} is {length} bytes, longer than the {_MAX_SOCKET_PATH} AF_UNIX allows; "
                "set MORAINE_HOME to a shorter directory"
            )
        return None
