"""Shared fixtures of the end-to-end tests: real ``moraine mcp`` processes over stdio on homes filled by ``moraine ingest``.

- ``stdio_run``: one ``moraine mcp`` on an empty store that makes every call of the contract tables in one session and
  keeps the results, so each table row is its own test case while the server starts once.
- ``corpus_home``, ``scope_home``, ``clients``: a home with its corpus ingested, made once per pytest process and read
  by every module that asks for it (the tools only read; ``moraine mcp`` relays to the daemon the first module's
  relay started, so later modules skip both the ingest and the daemon's start). Each is stopped at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import anyio
import pytest
from clients_home import clients_home
from daemon_support import DaemonHome
from stdio_session import MORAINE, StdioRun, run_calls

from fixtures.corpus.stdio import Home, prepare_home
from fixtures.scope.projects import ScopeHome, prepare_scope_home

H = TypeVar("H")


@pytest.fixture(scope="session")
def stdio_run() -> Iterator[StdioRun]:
    """Spawn ``moraine mcp`` with a throwaway HOME and MORAINE_HOME and make every contract call once."""
    assert MORAINE.exists(), f"{MORAINE} missing: pip install -e . into the venv"
    with DaemonHome() as home:
        home.seed_store()
        yield anyio.run(run_calls, home.relay_params())


def _until_the_end(home: H, stop: Callable[[], None]) -> Iterator[H]:
    """Yield ``home`` for the rest of the session, then ``stop()`` (its daemon)."""
    try:
        yield home
    finally:
        stop()


@pytest.fixture(scope="session")
def corpus_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Home]:
    """The read tools' trace corpus (``fixtures.corpus.traces``) ingested with ``moraine ingest``."""
    home = prepare_home(Path(tmp_path_factory.mktemp("corpus-home")))
    yield from _until_the_end(home, home.stop_daemon)


@pytest.fixture(scope="session")
def scope_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScopeHome]:
    """A home with Git projects and worktrees holding sessions (``fixtures.scope``)."""
    home = prepare_scope_home(Path(tmp_path_factory.mktemp("scope")))
    yield from _until_the_end(home, home.stop_daemon)


@pytest.fixture(scope="session")
def clients() -> Iterator[DaemonHome]:
    """A home with a Claude Code session without a title record and a Codex session (``clients_home``)."""
    home = clients_home()
    yield from _until_the_end(home, home.cleanup)
