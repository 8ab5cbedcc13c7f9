"""After real use (a daemon that served and ingested, then ``moraine ingest``), nothing under ``$MORAINE_HOME`` is
open to another account; a too-open install is tightened at start; and ``moraine ingest`` is refused while the
daemon owns the store, an embedded chDB store or a ClickHouse server alike."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from daemon_support import MORAINE, DaemonHome, codex_turn, wait_for
from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

UUID = "0196f000-0000-7000-8000-0000000017aa"


class _Home(DaemonHome):
    """A daemon home whose processes run this checkout's code (``PYTHONPATH`` passed on when it is set).

    Its directory is not named like the shared ``/tmp/mdt*`` homes, which a parallel test session's teardown stops
    the daemons of; this module stops its own.
    """

    def __init__(self) -> None:
        super().__init__(root=Path(tempfile.mkdtemp(prefix="mph", dir="/tmp")))

    @property
    def env(self) -> dict[str, str]:
        env = super().env
        if os.environ.get("PYTHONPATH"):
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        return env


def _moraine(home: DaemonHome, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(MORAINE), *args], env=home.env, cwd=home.root, capture_output=True, text=True, timeout=300
    )


def _open_to_others(root: Path) -> dict[str, str]:
    """Return every path under ``root`` (itself included) that grants anything to group or others, with its mode."""
    found = {}
    for path in [root, *root.rglob("*")]:
        mode = path.lstat().st_mode
        if not stat.S_ISLNK(mode) and stat.S_IMODE(mode) & 0o077:
            found[str(path.relative_to(root))] = oct(stat.S_IMODE(mode))
    return found


def _loosen(root: Path) -> int:
    """Make ``root`` look like an install from before the rule: directories 0755, files 0644."""
    paths = [p for p in [root, *root.rglob("*")] if not p.is_symlink()]  # chDB links its databases' metadata
    for path in paths:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    return len(paths)


def _ready(home: DaemonHome) -> int:
    """Wait for the daemon to be ready; fail with its output and log when it is not."""
    try:
        return home.wait_ready().pid
    except AssertionError as exc:
        out = home.root / "serve.out"
        raise AssertionError(
            f"{exc}\nserve output:\n{out.read_text() if out.exists() else ''}\nlog:\n{home.log_text()[-4000:]}"
        ) from exc


def _stop(home: DaemonHome, daemon: subprocess.Popen[bytes]) -> None:
    daemon.send_signal(signal.SIGTERM)
    assert daemon.wait(60) == 0


@dataclass
class _Used:
    home: _Home
    daemon_pid: int
    refused: subprocess.CompletedProcess[str]
    open_while_running: dict[str, str]
    entries_while_running: set[str]
    ingest_after: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module")
def used() -> Iterator[_Used]:
    """A home after real use: the daemon served and ingested one trace; ingest was tried while it ran, then after."""
    home = _Home()
    os.chmod(home.root, 0o755)  # like a user's home: only ~/.moraine's own modes keep others out
    home.configure()
    os.chmod(home.moraine_home / "config.toml", 0o644)  # as an older install left it
    trace = home.session_file(UUID)
    trace.write_text(codex_turn(0, "Where is the wombat ledger?", "In ledger/wombat.csv."))
    for path in [
        trace,
        *trace.parents,
    ]:  # the traces are the user's business: left readable (whatever our umask)
        if path == home.root:
            break
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    try:
        daemon = home.serve()
        pid = _ready(home)
        wait_for(lambda: home.health()["backfill"] == "done", 120, "the backfill")
        refused = _moraine(home, "ingest")
        entries = {str(p.relative_to(home.moraine_home)) for p in home.moraine_home.rglob("*")}
        open_while_running = _open_to_others(home.moraine_home)
        _stop(home, daemon)
        ingest_after = _moraine(home, "ingest")
        yield _Used(home, pid, refused, open_while_running, entries, ingest_after)
    finally:
        home.cleanup()


def test_ingest_is_refused_while_the_daemon_owns_the_chdb_store_and_runs_once_it_stopped(used: _Used) -> None:
    assert used.refused.returncode == 1
    message = " ".join(used.refused.stderr.split())  # rich wraps the error: compare it on one line
    store = f"chdb://{used.home.moraine_home / 'store'} (database moraine)"
    assert f"the Moraine daemon (pid {used.daemon_pid}) owns the store {store}" in message
    assert f"stop it (kill {used.daemon_pid})" in message and "moraine status" in message
    assert used.ingest_after.returncode == 0, used.ingest_after.stderr
    assert "events 0" in used.ingest_after.stderr  # the daemon had indexed the trace: nothing duplicated


def test_nothing_under_moraine_home_is_open_to_other_accounts_after_real_use(used: _Used) -> None:
    for expected in ("config.toml", "cursor-secret", "logs/daemon.log", "run/daemon.json", "run/daemon.sock"):
        assert expected in used.entries_while_running
    assert sum(1 for e in used.entries_while_running if e.startswith("store/")) > 50  # the chDB store's files
    assert any(e.startswith("run/store-") and e.endswith(".lock") for e in used.entries_while_running)
    assert used.open_while_running == {}
    assert _open_to_others(used.home.moraine_home) == {}  # and after `moraine ingest` used it too


def test_another_account_can_read_nothing_under_moraine_home(used: _Used) -> None:
    if os.geteuid() != 0:
        pytest.skip(
            "reading as another account needs root (to switch to `nobody`); the mode check above still ran"
        )
    switch = _switch_to_nobody()
    if switch is None:
        pytest.skip("neither runuser nor setpriv is installed, so no command can run as `nobody`")
    home = used.home.moraine_home
    paths = [home, *home.rglob("*")]
    script = 'for p; do if [ -d "$p" ]; then ls -A "$p"; else head -c 1 "$p"; fi >/dev/null 2>&1 && echo "$p"; done; exit 0'
    readable = subprocess.run(
        [*switch, "sh", "-c", script, "sh", *map(str, paths)], capture_output=True, text=True, timeout=120
    )
    assert readable.returncode == 0, readable.stderr
    assert readable.stdout.split() == []
    control = (
        used.home.sessions
    )  # the traces themselves are the user's business: 0755/0644 here, and readable
    seen = subprocess.run([*switch, "ls", str(control)], capture_output=True, text=True, timeout=60)
    assert seen.returncode == 0 and f"{UUID}.jsonl" in seen.stdout, seen.stderr


def _switch_to_nobody() -> list[str] | None:
    if shutil.which("runuser"):
        return ["runuser", "-u", "nobody", "--"]
    if shutil.which("setpriv"):
        return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"]
    return None


def test_an_install_left_0755_and_0644_is_tightened_when_the_daemon_starts(used: _Used) -> None:
    home = used.home
    loosened = _loosen(home.moraine_home)
    assert len(_open_to_others(home.moraine_home)) == loosened
    daemon = home.serve()
    try:
        _ready(home)
    finally:
        _stop(home, daemon)
    assert _open_to_others(home.moraine_home) == {}
    assert f"made {loosened} file(s) under {home.moraine_home} user-only" in home.log_text()


@pytest.fixture
def server_home(request: pytest.FixtureRequest) -> Iterator[tuple[_Home, str, str]]:
    """A daemon home whose store is a ClickHouse server (``CLICKHOUSE_URL``, else the test endpoint on chDB)."""
    dsn = os.environ.get("CLICKHOUSE_URL") or str(request.getfixturevalue("clickhouse_http_url"))
    database = f"t_{uuid.uuid4().hex[:16]}"
    home = _Home()
    home.configure()
    with (home.moraine_home / "config.toml").open("a") as config:
        config.write(f'[store]\ndsn = "{dsn}"\ndatabase = "{database}"\n')
    home.session_file(UUID).write_text(codex_turn(0, "Where is the wombat ledger?", "In ledger/wombat.csv."))
    try:
        yield home, dsn, database
    finally:
        home.cleanup()
        from moraine.store.client import Store

        store = Store(dsn, database)
        store.command(f"DROP DATABASE IF EXISTS {database}")
        store.close()


def test_ingest_is_refused_while_the_daemon_owns_a_clickhouse_server_store(
    server_home: tuple[_Home, str, str],
) -> None:
    home, dsn, database = server_home
    daemon = home.serve()
    try:
        pid = _ready(home)
        refused = _moraine(home, "ingest")
    finally:
        _stop(home, daemon)
    assert refused.returncode == 1
    message = " ".join(refused.stderr.split())
    assert f"the Moraine daemon (pid {pid}) owns the store" in message
    assert (
        f"(database {database})" in message and "a second writer would index the same files twice" in message
    )
    after = _moraine(home, "ingest")
    assert after.returncode == 0, after.stderr


class _ModeWatch(FileSystemEventHandler):
    """Stat every path as soon as inotify reports it created, moved in or changed; keep the modes seen."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}
        self.open: dict[str, str] = {}

    def on_any_event(self, event: FileSystemEvent) -> None:
        for raw in (event.src_path, getattr(event, "dest_path", "")):
            path = os.fsdecode(raw)
            if not path:
                continue
            try:
                mode = os.lstat(path).st_mode
            except FileNotFoundError:
                continue
            self.seen[path] = mode
            if not stat.S_ISLNK(mode) and stat.S_IMODE(mode) & 0o077:
                self.open.setdefault(path, oct(stat.S_IMODE(mode)))


# watchdog warns (from its own thread) when a directory it is adding a watch to has vanished: chDB's temporary ones
@pytest.mark.filterwarnings("ignore:.*:RuntimeWarning")
def test_a_first_start_on_a_fresh_home_never_shows_a_mode_open_to_others() -> None:
    home = _Home()  # no ~/.moraine yet: `moraine web` creates it and starts the daemon
    watch = _ModeWatch()
    observer = Observer()
    observer.schedule(watch, str(home.root), recursive=True)
    observer.start()
    previous = os.umask(0o022)  # a user's usual umask: only our own must keep others out
    try:
        started = subprocess.run(
            [str(MORAINE), "web", "--no-open"],
            env=home.env,
            cwd=home.root,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert started.returncode == 0, started.stderr
        wait_for(lambda: home.health()["backfill"] == "done", 120, "the backfill")
    finally:
        os.umask(previous)
        observer.stop()
        observer.join(30)
        home.cleanup()
    under = [p for p in watch.seen if p.startswith(str(home.moraine_home))]
    assert str(home.moraine_home) in watch.seen and len(under) > 20, sorted(under)[:10]
    for expected in ("logs", "logs/daemon.log", "run", "run/http-secret", "run/web-login.html"):
        assert str(home.moraine_home / expected) in watch.seen, expected
    assert {p: m for p, m in watch.open.items() if p.startswith(str(home.moraine_home))} == {}
