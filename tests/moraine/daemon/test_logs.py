"""The daemon log: credentials masked (tracebacks too), user-only files, bounded by size, stderr follows rotation."""

from __future__ import annotations

import logging
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from moraine.daemon.logs import BACKUPS, MAX_BYTES, setup_logging

DSN = "http://moraine:hunter2-Zq9@db.internal:8123"


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        yield
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
            handler.close()
        for handler in handlers:
            root.addHandler(handler)
        root.setLevel(level)


def test_the_store_password_never_reaches_the_log_file(tmp_path: Path, restore_logging: None) -> None:
    log = tmp_path / "daemon.log"
    setup_logging(log, to_terminal=False)
    logger = logging.getLogger("moraine.daemon")
    logger.info("starting (pid 1, store %s)", DSN)
    try:
        raise ConnectionError(f"cannot reach {DSN}?password=hunter2-Zq9")
    except ConnectionError:
        logger.exception("store failed")
    text = log.read_text()
    assert "hunter2-Zq9" not in text
    assert "starting (pid 1, store http://moraine:***@db.internal:8123)" in text
    assert "ConnectionError: cannot reach http://moraine:***@db.internal:8123?password=***" in text
    assert stat.S_IMODE(log.stat().st_mode) == 0o600


def test_the_log_is_rotated_at_its_size_and_keeps_a_bounded_number_of_user_only_files(
    tmp_path: Path, restore_logging: None
) -> None:
    assert MAX_BYTES == 10 * 1024 * 1024 and BACKUPS == 3  # the figures the README states
    log = tmp_path / "daemon.log"
    setup_logging(log, to_terminal=False, max_bytes=2000, backups=2)
    for index in range(200):
        logging.getLogger("moraine.daemon").info("line %03d %s", index, "x" * 40)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["daemon.log", "daemon.log.1", "daemon.log.2"]
    for name in files:
        path = tmp_path / name
        assert path.stat().st_size <= 2000
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "line 199" in log.read_text()


_SPAWNED = """
import logging, os, sys
from pathlib import Path
from moraine.daemon.logs import setup_logging
log = Path(sys.argv[1])
setup_logging(log, to_terminal=False, max_bytes=1000, backups=1)
for index in range(50):
    logging.getLogger("moraine.daemon").info("line %03d %s", index, "x" * 40)
os.write(2, b"written to stderr after rotation\\n")
"""


def test_a_spawned_daemons_stderr_moves_to_the_new_log_file_on_rotation(tmp_path: Path) -> None:
    log = tmp_path / "daemon.log"
    with log.open("ab") as handle:  # as the launcher starts a daemon: stdout and stderr appended to the log
        result = subprocess.run(
            [sys.executable, "-c", _SPAWNED, str(log)],
            stdout=handle,
            stderr=handle,
            timeout=60,
            env={"PYTHONPATH": str(Path(__file__).resolve().parents[3]), "PATH": "/usr/bin:/bin"},
        )
    assert result.returncode == 0, (tmp_path / "daemon.log").read_text()
    assert "written to stderr after rotation" in log.read_text()
    assert "written to stderr after rotation" not in (tmp_path / "daemon.log.1").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["daemon.log", "daemon.log.1"]
