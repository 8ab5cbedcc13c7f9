"""The daemon's state file: who is serving where, written atomically once the daemon is ready."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

__all__ = ["DaemonState", "pid_alive", "read_state", "remove_state", "write_state"]


@dataclass(frozen=True, slots=True)
class DaemonState:
    pid: int
    port: int
    socket: str
    version: str
    started_at: str
    ready: bool
    backfill: str = "running"  # "running" until the first full ingest pass is done, then "done"


def write_state(path: Path, state: DaemonState) -> None:
    """Replace the state file with ``state`` in one step (readers never see a partial file)."""
    fd, tmp = tempfile.mkstemp(prefix=".daemon-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(asdict(state), handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_state(path: Path) -> DaemonState | None:
    """Return the state in ``path``, or None when it is missing or not a state file."""
    try:
        raw: Any = json.loads(path.read_text(encoding="utf-8"))
        return DaemonState(**raw) if isinstance(raw, dict) else None
    except (OSError, ValueError, TypeError):
        return None


def remove_state(path: Path, pid: int) -> None:
    """Remove the state file if it still describes process ``pid``."""
    state = read_state(path)
    if state is not None and state.pid == pid:
        path.unlink(missing_ok=True)


def pid_alive(pid: int) -> bool:
    """Return whether a process ``pid`` exists (zombies count as gone only once reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
