"""A throwaway HOME with its own Moraine home and embedded store, and ``moraine`` (or Python) run in it as a child.

Each run is one child process, waited for with ``os.wait4`` by a small Python launcher that forked it: its peak
resident memory is that child's own (the kernel's ``ru_maxrss``). Forked straight from the test process, a child
would start from the test process's peak: Linux copies a process's high-water mark into its fork and keeps it across
``exec``, so a child of a pytest worker grown to 968 MB reported 968 MB whatever it did itself. ``holding`` walks
every file under the HOME (the store's column files decompressed too) for a planted string.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from tests.fixtures.migrated_store import seed_migrated_store
from tests.moraine.store.part_bytes import files_holding

__all__ = ["Home", "Ran", "new_home"]

_ROOT = Path(__file__).resolve().parents[2]
_MORAINE = str(Path(sys.executable).parent / "moraine")
# argv: REPORT COMMAND...: run COMMAND in a fork, write its own peak RSS (KiB) to REPORT, exit with its exit code.
_LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execvpe(sys.argv[2], sys.argv[2:], os.environ)
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as report:
    report.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status) % 256)
"""


@dataclass(frozen=True, slots=True)
class Ran:
    """A finished child: its exit code, what it printed (stdout and stderr together) and its peak RSS in MB."""

    code: int
    output: str
    peak_mb: float


@dataclass(frozen=True, slots=True)
class Home:
    root: Path  # $HOME: the agents' folders are under it
    moraine: Path  # $MORAINE_HOME, the store at moraine/store

    def env(self) -> dict[str, str]:
        env = dict(os.environ, HOME=str(self.root), MORAINE_HOME=str(self.moraine), PYTHONPATH=str(_ROOT))
        env.pop("MORAINE_CONFIG", None)
        return env

    def moraine_cli(self, *args: str, timeout: float = 300.0) -> Ran:
        """Run ``moraine ARGS`` in this home."""
        return _waited(self, [_MORAINE, *args], timeout)

    def python(self, code: str, *args: str, timeout: float = 300.0) -> Ran:
        """Run ``python -c CODE ARGS`` in this home (the repository first on its path)."""
        return _waited(self, [sys.executable, "-c", code, *args], timeout)

    def holding(self, needle: str, skip: tuple[str, ...] = ()) -> list[str]:
        """Return every file under the HOME (but the folders ``skip``, relative to it) that holds ``needle``."""
        skipped = tuple(str(self.root / name) for name in skip)
        return [path for path in files_holding(self.root, needle) if not path.startswith(skipped)]


def _waited(home: Home, argv: list[str], timeout: float) -> Ran:
    log = home.root.parent / f"child-{os.getpid()}.log"
    report = home.root.parent / f"child-{os.getpid()}.rss"
    report.unlink(missing_ok=True)
    with log.open("wb") as out:
        launcher = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER, str(report), *argv],
            env=home.env(),
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=home.root,
            start_new_session=True,  # its own process group: a timeout kills the child with it
        )
    timer = threading.Timer(timeout, os.killpg, (launcher.pid, signal.SIGKILL))  # outlived the bound: killed
    timer.start()
    try:
        code = launcher.wait()
    finally:
        timer.cancel()
    output = log.read_text(errors="replace")
    log.unlink()
    peak_kib = int(report.read_text()) if report.exists() else 0
    report.unlink(missing_ok=True)
    assert report.parent.exists() and peak_kib > 0, (
        f"the launcher reported no peak (exit {code}): {output[-2000:]}"
    )
    return Ran(code, output, peak_kib / 1024)


def new_home(tmp_path: Path, config: str = "") -> Home:
    """Return a HOME under ``tmp_path`` whose Moraine home holds a migrated store and a config (plus ``config``)."""
    root = tmp_path / "home"
    moraine = root / ".moraine"
    seed_migrated_store(moraine)
    lines = ["[ingest]", "workers = 0", "[semantic]", "enabled = false", config]
    (moraine / "config.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Home(root, moraine)
