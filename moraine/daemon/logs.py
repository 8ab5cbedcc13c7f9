"""The daemon's log: ``$MORAINE_HOME/logs/daemon.log`` (and the terminal when there is one); reading its tail."""

from __future__ import annotations

import logging
import os
from pathlib import Path

__all__ = ["log_tail", "setup_logging"]

_FORMAT = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"


def setup_logging(log_file: Path, to_terminal: bool) -> None:
    """Send INFO and above to ``log_file``, and to stderr when it is a terminal (a spawned daemon's stderr is the log)."""
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    for handler in list(root.handlers):
        root.removeHandler(handler)
    file_handler = logging.FileHandler(log_file, encoding="utf-8")
    file_handler.setFormatter(logging.Formatter(_FORMAT))
    root.addHandler(file_handler)
    if to_terminal:
        terminal = logging.StreamHandler()
        terminal.setFormatter(logging.Formatter("moraine serve: %(levelname)s %(message)s"))
        root.addHandler(terminal)
    for noisy in ("uvicorn.access", "httpx", "httpx2", "mcp"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def log_tail(log_file: Path, lines: int = 20, max_bytes: int = 64_000) -> str:
    """Return the last ``lines`` lines of ``log_file`` ('' when it does not exist)."""
    try:
        with log_file.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - max_bytes))
            data = handle.read()
    except OSError:
        return ""
    return "\n".join(data.decode("utf-8", "replace").splitlines()[-lines:])
