"""Shared fixtures of the end-to-end tests: real ``moraine mcp`` processes over stdio on homes filled by ``moraine ingest``.

- ``stdio_run``: one ``moraine mcp`` on an empty store that makes every call of the contract tables in one session and
  keeps the results, so each table row is its own test case while the server starts once.
- ``corpus_home``, ``scope_home``, ``clients``: a home with its corpus ingested, made once per pytest process and read
  by every module that asks for it (the tools only read; ``moraine mcp`` relays to the daemon the first module's
  relay started, so later modules skip both the ingest and the daemon's start).

All four daemons are stopped together at the end of the session.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import anyio
import pytest
from clients_home import clients_home
from daemon_support import DaemonHome
from stdio_session import MORAINE, StdioRun, run_calls

from fixtures.corpus.stdio import Home, prepare_home
from fixtures.home_daemon import stop_daemons
from fixtures.scope.projects import ScopeHome, prepare_scope_home

SharedHomes = list[tuple[Path, Callable[[], None]]]


@pytest.fixture(scope="session")
def _shared_homes() -> Iterator[SharedHomes]:
    """Collect the session homes (their ``MORAINE_HOME`` and what removes them); at the end, stop their daemons
    together (one after another, each stop's second or two added up) and then remove them."""
    homes: SharedHomes = []
    yield homes
    stop_daemons([moraine_home for moraine_home, _ in homes])
    for _, remove in homes:
        remove()


@pytest.fixture(scope="session")
def stdio_run(_shared_homes: SharedHomes) -> StdioRun:
    """Spawn ``moraine mcp`` with a throwaway HOME and MORAINE_HOME and make every contract call once."""
    assert MORAINE.exists(), f"{MORAINE} missing: pip install -e . into the venv"
    home = DaemonHome()
    _shared_homes.append((home.moraine_home, home.cleanup))
    home.configure(
        idle_exit_seconds=300
    )  # semantic recall off; the daemon is stopped with the session's others
    home.seed_store()
    return anyio.run(run_calls, home.relay_params())


def _nothing() -> None:
    """The homes under pytest's temporary directory are pytest's to remove."""


@pytest.fixture(scope="session")
def corpus_home(tmp_path_factory: pytest.TempPathFactory, _shared_homes: SharedHomes) -> Home:
    """The read tools' trace corpus (``fixtures.corpus.traces``) ingested with ``moraine ingest``."""
    home = prepare_home(Path(tmp_path_factory.mktemp("corpus-home")))
    _shared_homes.append((home.path / ".moraine", _nothing))
    return home


@pytest.fixture(scope="session")
def scope_home(tmp_path_factory: pytest.TempPathFactory, _shared_homes: SharedHomes) -> ScopeHome:
    """A home with Git projects and worktrees holding sessions (``fixtures.scope``)."""
    home = prepare_scope_home(Path(tmp_path_factory.mktemp("scope")))
    _shared_homes.append((home.path / ".moraine", _nothing))
    return home


@pytest.fixture(scope="session")
def clients(_shared_homes: SharedHomes) -> DaemonHome:
    """A home with a Claude Code session without a title record and a Codex session (``clients_home``)."""
    home = clients_home()
    _shared_homes.append((home.moraine_home, home.cleanup))
    return home
