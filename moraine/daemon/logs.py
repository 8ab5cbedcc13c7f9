"""The daemon's log: ``$MORAINE_HOME/logs/daemon.log`` (and the terminal when there is one); reading its tail.

Every line, tracebacks included, passes through ``mask_credentials`` (a DSN's password never reaches the file).
The file is user-only (0600) and bounded: at ``MAX_BYTES`` it is renamed ``daemon.log.1`` (older ones shift up to
``daemon.log.<BACKUPS>``, the oldest is dropped), so the logs never take more than about
``(BACKUPS + 1) * MAX_BYTES``. A daemon started by a relay has its stdout/stderr on the log file too; on rotation
those descriptors move to the new file, so nothing keeps growing a renamed or deleted file.
"""

from __future__ import annotations

import logging
import os
from logging.handlers import RotatingFileHandler
from pathlib import Path

from moraine.daemon.logmask import mask_credentials

__all__ = ["BACKUPS", "MAX_BYTES", "MaskingFormatter", "log_tail", "setup_logging"]

_FORMAT = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"
MAX_BYTES = 10 * 1024 * 1024
BACKUPS = 3


class MaskingFormatter(logging.Formatter):
    """A formatter whose output (message, arguments, traceback) has its credentials masked."""

    def format(self, record: logging.LogRecord) -> str:
        return mask_credentials(super().format(record))


class _UserOnlyRotatingHandler(RotatingFileHandler):
    """Size-rotated log files created 0600; stdout/stderr that point at the log follow it to the new file."""

    def _open(self):  # type: ignore[no-untyped-def]  # typeshed declares it without annotations
        stream = super()._open()
        os.chmod(self.baseFilename, 0o600)
        return stream

    def doRollover(self) -> None:
        following = [fd for fd in (1, 2) if _same_file(fd, self.baseFilename)]
        super().doRollover()
        if self.stream is not None:
            for fd in following:
                os.dup2(self.stream.fileno(), fd)


def _same_file(fd: int, path: str) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False


def setup_logging(
    log_file: Path, to_terminal: bool, max_bytes: int = MAX_BYTES, backups: int = BACKUPS
) -> None:
    """Send INFO and above to ``log_file`` (rotated at ``max_bytes``, ``backups`` old files kept), and to stderr
    when it is a terminal (a spawned daemon's stderr is the log)."""
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    for handler in list(root.handlers):
        root.removeHandler(handler)
    file_handler = _UserOnlyRotatingHandler(
        log_file, maxBytes=max_bytes, backupCount=backups, encoding="utf-8"
    )
    file_handler.setFormatter(MaskingFormatter(_FORMAT))
    root.addHandler(file_handler)
    if to_terminal:
        terminal = logging.StreamHandler()
        terminal.setFormatter(MaskingFormatter("moraine serve: %(levelname)s %(message)s"))
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
