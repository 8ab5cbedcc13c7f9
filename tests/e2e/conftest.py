"""One real ``moraine mcp`` process over stdio, spawned as a user's MCP client would, shared by the e2e tests.

The fixture makes every call of the contract tables in one session and keeps the results, so each table row is its
own test case while the server starts once.
"""

from __future__ import annotations

import anyio
import pytest
from mcp import StdioServerParameters
from stdio_session import MORAINE, StdioRun, run_calls


@pytest.fixture(scope="session")
def stdio_run(tmp_path_factory: pytest.TempPathFactory) -> StdioRun:
    """Spawn ``moraine mcp`` with a throwaway MORAINE_HOME and make every contract call once."""
    home = tmp_path_factory.mktemp("moraine-home")
    assert MORAINE.exists(), f"{MORAINE} missing: pip install -e . into the venv"
    params = StdioServerParameters(
        command=str(MORAINE),
        args=["mcp"],
        env={"MORAINE_HOME": str(home / ".moraine"), "HOME": str(home)},
        cwd=str(home),
    )
    return anyio.run(run_calls, params)
