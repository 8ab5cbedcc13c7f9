"""The official MCP Inspector's ``--cli --strict`` portability check on ``moraine mcp``'s four tools: no findings.

Opt-in (it needs Node and the Inspector from the npm registry): install it once, then point at the directory:

    npm install --prefix /tmp/inspector @modelcontextprotocol/inspector@2.12.0
    MORAINE_INSPECTOR=/tmp/inspector .venv/bin/python -m pytest tests/e2e/test_inspector_strict.py

CI runs ``tests/codegen/test_portable.py`` instead: the same rules restated in Python.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from daemon_support import MORAINE, DaemonHome

INSPECTOR_DIR = os.environ.get("MORAINE_INSPECTOR", "")
pytestmark = pytest.mark.skipif(
    not INSPECTOR_DIR, reason="set MORAINE_INSPECTOR to a directory holding @modelcontextprotocol/inspector"
)


def test_the_inspectors_strict_check_finds_nothing_in_the_four_tools() -> None:
    inspector = Path(INSPECTOR_DIR) / "node_modules" / ".bin" / "mcp-inspector"
    assert inspector.exists(), (
        f"{inspector} missing: npm install --prefix {INSPECTOR_DIR} @modelcontextprotocol/inspector"
    )
    home = DaemonHome()
    try:
        home.configure(start_timeout_seconds=300)
        env_flags = [flag for key, value in home.env.items() for flag in ("-e", f"{key}={value}")]
        done = subprocess.run(
            [str(inspector), "--cli", "--strict", "--connect-timeout", "300000", *env_flags]
            + ["--method", "tools/list", str(MORAINE), "mcp"],
            capture_output=True,
            text=True,
            timeout=600,
            cwd=home.root,
        )
    finally:
        home.cleanup()
    assert done.returncode == 0, done.stderr[-4000:]
    assert "Warning:" not in done.stderr and "Error:" not in done.stderr, done.stderr[-4000:]
    assert sorted(tool["name"] for tool in json.loads(done.stdout)["tools"]) == [
        "file_attention",
        "list_sessions",
        "open",
        "search_sessions",
    ]
