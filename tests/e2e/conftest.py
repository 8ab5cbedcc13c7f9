"""One real ``moraine mcp`` process over stdio, spawned as a user's MCP client would, shared by the e2e tests.

The fixture makes every call of the contract tables in one session and keeps the results, so each table row is its
own test case while the server starts once. ``moraine mcp`` relays to a daemon it starts; the teardown stops it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from daemon_support import DaemonHome
from stdio_session import MORAINE, StdioRun, run_calls

from fixtures.scope.projects import ScopeHome, prepare_scope_home


@pytest.fixture(scope="session")
def stdio_run() -> Iterator[StdioRun]:
    """Spawn ``moraine mcp`` with a throwaway HOME and MORAINE_HOME and make every contract call once."""
    assert MORAINE.exists(), f"{MORAINE} missing: pip install -e . into the venv"
    home = DaemonHome()
    home.seed_store()
    try:
        yield anyio.run(run_calls, home.relay_params())
    finally:
        home.cleanup()


@pytest.fixture(scope="module")
def scope_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScopeHome]:
    """A home with Git projects and worktrees holding sessions (``fixtures.scope``); its daemon stops afterwards."""
    home = prepare_scope_home(Path(tmp_path_factory.mktemp("scope")))
    try:
        yield home
    finally:
        home.stop_daemon()
