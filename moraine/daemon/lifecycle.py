"""Run the daemon: own the store, listen on loopback TCP and a user-only Unix socket, ingest, stop cleanly.

Order: user-only home (umask 077, existing files tightened) -> owner lock -> store writer lock -> log -> store connections -> listeners -> serving -> state file (ready) -> ingest thread.
Shutdown (SIGTERM/SIGINT, or idle exit for a daemon a relay started): stop serving, stop ingest, close the store,
remove the state file and socket, release the lock.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import time
from contextlib import nullcontext
from dataclasses import replace
from datetime import UTC, datetime
from types import FrameType
from typing import Any

import anyio
import uvicorn
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn

from moraine.handler_api import load_handler_table
from moraine.handler_api import Deps
from moraine.access import Access
from moraine.access.connections import guarded_protocol
from moraine.config import Config
from moraine.daemon.startup import StartupClock
from moraine.daemon.activity import Activity
from moraine.daemon.admission import Admission
from moraine.daemon.agents import AgentsCache
from moraine.daemon.app import build_daemon_app
from moraine.daemon.hook_route import hook_route
from moraine.daemon.cancel import CancellingRunner
from moraine.daemon.ingest import BackgroundIngest
from moraine.daemon.locks import FileLock
from moraine.daemon.logs import setup_logging
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.report import store_report
from moraine.daemon.settings import DaemonSettings
from moraine.daemon.state import DaemonState, read_state, remove_state, write_state
from moraine.daemon.version import moraine_version
from moraine.daemon.writer_lock import StoreWriterLock
from moraine.errors import ConfigError, StoreError
from moraine.ingest.forget_request import answer_forget
from moraine.ingest.progress import PassProgress
from moraine.private_files import secure_home
from moraine.semantic.hybrid import SemanticRanker
from moraine.semantic.service import start_semantic
from moraine.hooks.settings import hook_settings
from moraine.server.runtime import settings_from_config
from moraine.server.service import ToolService
from moraine.store.client import Store

__all__ = ["DaemonAlreadyRunning", "run_daemon"]

logger = logging.getLogger("moraine.daemon")
# An embedded store opens in one process at a time: a CLI call made with no daemon up opens it directly for a second
# or two, and a daemon starting meanwhile waits this long for it (a store that stays unopenable fails after that).
_STORE_OPEN_WAIT_SECONDS = 20.0
HOST = "127.0.0.1"
_MONITOR_SECONDS = 0.1
# Hand the GIL over more often than the default 5 ms so the ingest thread keeps up while calls run.
_SWITCH_SECONDS = 0.001


class DaemonAlreadyRunning(Exception):
    """Another daemon holds this Moraine home."""


def run_daemon(config: Config, settings: DaemonSettings, spawned: bool = False) -> None:
    """Serve until a signal (or, when ``spawned`` by a relay, until idle for ``settings.idle_exit_seconds``).

    Raises:
        DaemonAlreadyRunning: another daemon owns ``config.home``.
        StoreBusy: ``moraine ingest`` is writing to the configured store.
        ConfigError: the socket path is unusable.
        StoreError: the store cannot be opened.
    """
    clock = StartupClock()
    tightened = secure_home(config)  # before anything is created: the store, logs and run files are user-only
    clock.done("home secured")
    paths = DaemonPaths(config.home)
    paths.prepare()
    problem = paths.socket_path_problem()
    if problem:
        raise ConfigError(problem)
    owner = FileLock(paths.owner_lock)
    if not owner.try_acquire():
        state = read_state(paths.state)
        who = f" (pid {state.pid}, port {state.port})" if state else ""
        raise DaemonAlreadyRunning(f"a Moraine daemon is already running for {config.home}{who}")
    writer = StoreWriterLock(paths.run_dir, config.store_dsn, config.database)
    try:
        writer.acquire("daemon")
        clock.done("locks taken")
        sys.setswitchinterval(_SWITCH_SECONDS)
        terminal = sys.stderr.isatty()
        setup_logging(paths.log, to_terminal=terminal)
        logger.info(
            "starting (pid %d, version %s, store %s)", os.getpid(), moraine_version(), config.store_dsn
        )
        clock.logging_ready()
        if tightened:
            logger.info("made %d file(s) under %s user-only", len(tightened), config.home)
        _Daemon(config, settings, paths, spawned, terminal, clock).run()
    finally:
        writer.release()
        owner.release()


class _Daemon:
    def __init__(
        self,
        config: Config,
        settings: DaemonSettings,
        paths: DaemonPaths,
        spawned: bool,
        terminal: bool,
        clock: StartupClock | None = None,
    ) -> None:
        self.clock = clock or StartupClock()
        self.config = config
        self.settings = settings
        self.paths = paths
        self.spawned = spawned
        self.terminal = terminal
        self.started_at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        self.port = 0
        self.activity = Activity()
        self.admission = Admission(settings.max_concurrent, settings.max_queued)
        self._stop_requested = False
        self._uvicorn: uvicorn.Server | None = None

    def run(self) -> None:
        ingest_store = self._open_store()
        self.clock.done("store opened and migrated")
        reads = Store(
            self.config.store_dsn,
            self.config.database,
            connections=self.settings.max_concurrent,
            limits=self.config.store_limits,
        )
        control = Store(self.config.store_dsn, self.config.database, limits=self.config.store_limits)
        self.clock.done("read connections opened")
        tcp, unix = self._listeners()
        progress = self._progress()
        ingest = BackgroundIngest(ingest_store, self.config, progress=self._progress_callback(progress))
        self.clock.done("listeners bound and ingest prepared")
        # Hybrid ranking and the background vectorizer, when installed: the model loads in the background and then
        # fills ``ranker``, the handlers' hybrid ranker (search stays lexical until then).
        ranker = SemanticRanker()
        semantic = start_semantic(self.config, ranker)
        self.clock.done("semantic recall started")
        try:
            with progress if progress is not None else nullcontext():
                anyio.run(self._serve, tcp, unix, reads, control, ingest, ranker)
        finally:
            ingest.shutdown()
            if semantic is not None:
                semantic.shutdown()
            for store in (reads, control, ingest_store):
                store.close()
            remove_state(self.paths.state, os.getpid())
            self.paths.socket.unlink(missing_ok=True)
            logger.info("stopped")

    def _open_store(self) -> Store:
        """Open (and migrate) the store; an embedded one held by another process is waited for, within bounds."""
        config = self.config
        deadline = time.monotonic() + _STORE_OPEN_WAIT_SECONDS
        waiting = False
        while True:
            try:
                return Store.open(config.store_dsn, config.database, limits=config.store_limits)
            except StoreError as exc:
                if not config.store_dsn.startswith("chdb://") or time.monotonic() >= deadline:
                    raise
                if not waiting:
                    waiting = True
                    logger.warning(
                        "the store cannot be opened yet (another process may hold it: %s); retrying for up to %.0f s",
                        exc,
                        _STORE_OPEN_WAIT_SECONDS,
                    )
                time.sleep(0.5)

    def _listeners(self) -> tuple[socket.socket, socket.socket]:
        tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        tcp.bind((HOST, self.settings.port))
        self.port = tcp.getsockname()[1]
        self.paths.socket.unlink(missing_ok=True)  # we hold the owner lock: any socket file here is stale
        unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        previous = os.umask(0o177)
        try:
            unix.bind(str(self.paths.socket))
        finally:
            os.umask(previous)
        os.chmod(self.paths.socket, 0o600)
        return tcp, unix

    def _progress(self) -> Progress | None:
        if not self.terminal:
            return None
        columns = (TextColumn("backfill"), BarColumn(), TextColumn("{task.fields[line]}"))
        return Progress(*columns, console=Console(stderr=True), transient=True)

    def _progress_callback(self, progress: Progress | None) -> Any:
        if progress is None:
            return None
        task = progress.add_task("backfill", total=None, line="")

        def report(state: PassProgress) -> None:
            progress.update(task, completed=state.files_done, total=state.files_total, line=state.line())
            if state.files_done == state.files_total:
                progress.stop()

        return report

    def _describe(self, ingest: BackgroundIngest) -> dict[str, Any]:
        return {
            "pid": os.getpid(),
            "version": moraine_version(),
            "port": self.port,
            "socket": str(self.paths.socket),
            "ready": True,
            "started_at": self.started_at,
            "backfill": "done" if ingest.backfilled.is_set() else "running",
            "backfill_progress": ingest.backfill.snapshot(),
            "ingest_error": ingest.last_error,
        }

    async def _serve(
        self,
        tcp: socket.socket,
        unix: socket.socket,
        reads: Store,
        control: Store,
        ingest: BackgroundIngest,
        ranker: SemanticRanker,
    ) -> None:
        runner = CancellingRunner(self.admission, control, self.activity)
        deps = Deps(store=reads, settings=settings_from_config(self.config), launch_dir=None, semantic=ranker)
        service = ToolService(deps, load_handler_table(), runner=runner)
        self.clock.done("tools loaded")
        stopping = anyio.Event()
        access = Access.at(self.paths.http_secret)
        app = build_daemon_app(
            service,
            self.admission,
            self.activity,
            stopping,
            lambda: self._describe(ingest),
            lambda limit: replace(
                store_report(control, limit, self.config.sources), backfill=ingest.backfill.snapshot()
            ),
            access,
            HOST,
            forgetter=lambda request: answer_forget(control, request, self.config.home),
            agents=AgentsCache(control, self.config.sources),
            hooks=hook_route(service, hook_settings(self.config)),
            usage=reads,
        )
        protocol = guarded_protocol(
            access.authorized,
            self.settings.header_timeout_seconds,
            self.settings.max_unauthenticated_connections,
        )
        config = uvicorn.Config(
            app, http=protocol, log_level="warning", timeout_graceful_shutdown=3, lifespan="on"
        )
        server = uvicorn.Server(config)
        self._uvicorn = server
        self._install_signals()
        async with anyio.create_task_group() as group:
            group.start_soon(self._monitor, server, ingest, stopping)
            await server.serve(sockets=[tcp, unix])
            stopping.set()
            group.cancel_scope.cancel()

    def _install_signals(self) -> None:
        """Turn SIGTERM/SIGINT/SIGHUP into a clean stop (uvicorn re-raises the first two here when it is done)."""

        def request_stop(signum: int, frame: FrameType | None) -> None:
            self._stop_requested = True
            if self._uvicorn is not None:
                self._uvicorn.should_exit = True

        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):  # SIGHUP: its terminal closed
            signal.signal(signum, request_stop)

    async def _monitor(self, server: uvicorn.Server, ingest: BackgroundIngest, stopping: anyio.Event) -> None:
        while not server.started:
            if server.should_exit:
                return
            await anyio.sleep(_MONITOR_SECONDS)
        state = DaemonState(
            pid=os.getpid(),
            port=self.port,
            socket=str(self.paths.socket),
            version=moraine_version(),
            started_at=self.started_at,
            ready=True,
        )
        write_state(self.paths.state, state)
        self.activity.touch()
        self.clock.done("HTTP server started")
        logger.info(
            "ready in %.2f s: MCP at http://%s:%d/mcp and unix:%s",
            self.clock.total(),
            HOST,
            self.port,
            self.paths.socket,
        )
        ingest.start()
        backfill_noted = False
        while not server.should_exit:
            if not backfill_noted and ingest.backfilled.is_set():
                backfill_noted = True
                write_state(self.paths.state, replace(state, backfill="done"))
            if self._idle_too_long():
                logger.info("no client for %.0f s: exiting", self.settings.idle_exit_seconds)
                server.should_exit = True
            if not self.paths.socket.exists():
                logger.warning("%s was removed: no client can reach this daemon; exiting", self.paths.socket)
                server.should_exit = True
            await anyio.sleep(_MONITOR_SECONDS)
        stopping.set()

    def _idle_too_long(self) -> bool:
        limit = self.settings.idle_exit_seconds
        return self.spawned and limit > 0 and self.activity.idle_seconds() >= limit
