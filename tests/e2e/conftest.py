"""One real ``moraine mcp`` process over stdio, spawned as a user's MCP client would, shared by the e2e tests.

The fixture makes every call of the contract tables in one session and keeps the results, so each table row is its
own test case while the server starts once. ``moraine mcp`` relays to a daemon it starts; the teardown stops it.
"""

from __future__ import annotations

from collections.abc import Iterator

import anyio
import pytest
from daemon_support import DaemonHome
from stdio_session import MORAINE, StdioRun, run_calls


@pytest.fixture(scope="session")
def stdio_run() -> Iterator[StdioRun]:
    """Spawn ``moraine mcp`` with a throwaway HOME and MORAINE_HOME and make every contract call once."""
    assert MORAINE.exists(), f"{MORAINE} missing: pip install -e . into the venv"
    home = DaemonHome()
    try:
        yield anyio.run(run_calls, home.relay_params())
    finally:
        home.cleanup()
