"""The official MCP Inspector CLI against ``moraine mcp``: its ``--strict`` portability check finds nothing in the four
tools, and calls with typed arguments (``n_hits=3``, ``limit=1``, which it converts by the published ``type``) work.

It needs Node and the Inspector from the npm registry; ``.ci/run`` installs it and sets ``MORAINE_INSPECTOR``:

    npm install --prefix /tmp/inspector @modelcontextprotocol/inspector
    MORAINE_INSPECTOR=/tmp/inspector .venv/bin/python -m pytest tests/e2e/test_inspector_strict.py

Without it the module skips; ``tests/codegen/test_portable.py`` restates the same rules in Python.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from daemon_support import MORAINE, DaemonHome, codex_turn, wait_for

INSPECTOR_DIR = os.environ.get("MORAINE_INSPECTOR", "")
pytestmark = pytest.mark.skipif(
    not INSPECTOR_DIR, reason="set MORAINE_INSPECTOR to a directory holding @modelcontextprotocol/inspector"
)
KEYWORD = "inspectorwombat"


@pytest.fixture(scope="module")
def home() -> Iterator[DaemonHome]:
    """A home with one Codex session (two turns), served by a running daemon."""
    served = DaemonHome()
    try:
        served.configure(start_timeout_seconds=300)
        served.seed_store()
        turns = codex_turn(1, f"How do we round the {KEYWORD} coupon?", "Half up, with Decimal.")
        turns += codex_turn(2, "And the refund?", "The same rule applies to refunds.")
        served.session_file("019a0000-0000-7000-8000-00000000abcd").write_text(turns)
        served.serve()
        served.wait_ready(300)
        yield served
    finally:
        served.cleanup()


def _inspector(home: DaemonHome, *args: str, strict: bool = False) -> subprocess.CompletedProcess[str]:
    """Run the Inspector CLI on ``moraine mcp`` with ``args`` after the server (``--tool-arg`` takes several)."""
    inspector = Path(INSPECTOR_DIR) / "node_modules" / ".bin" / "mcp-inspector"
    assert inspector.exists(), (
        f"{inspector} missing: npm install --prefix {INSPECTOR_DIR} @modelcontextprotocol/inspector"
    )
    env_flags = [flag for key, value in home.env.items() for flag in ("-e", f"{key}={value}")]
    return subprocess.run(
        [
            str(inspector),
            "--cli",
            *(["--strict"] if strict else []),
            "--connect-timeout",
            "300000",
            *env_flags,
        ]
        + [str(MORAINE), "mcp", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=home.root,
    )


def _call(home: DaemonHome, tool: str, *arguments: str) -> dict[str, Any]:
    flags = [flag for argument in arguments for flag in ("--tool-arg", argument)]
    done = _inspector(home, "--method", "tools/call", "--tool-name", tool, *flags)
    assert done.returncode == 0, done.stderr[-4000:]
    result = json.loads(done.stdout)
    assert result["isError"] is False, done.stdout[-4000:]
    envelope: dict[str, Any] = result["structuredContent"]
    return envelope


def test_the_inspectors_strict_check_finds_nothing_in_the_four_tools(home: DaemonHome) -> None:
    done = _inspector(home, "--method", "tools/list", strict=True)
    assert done.returncode == 0, done.stderr[-4000:]
    assert "Warning:" not in done.stderr and "Error:" not in done.stderr, done.stderr[-4000:]
    assert sorted(tool["name"] for tool in json.loads(done.stdout)["tools"]) == [
        "file_attention",
        "list_sessions",
        "open",
        "search_sessions",
    ]


def test_the_inspector_cli_passes_n_hits_and_limit_as_integers(home: DaemonHome) -> None:
    def found() -> dict[str, Any] | None:
        envelope = _call(home, "search_sessions", f"query={KEYWORD} coupon", "n_hits=3")
        return envelope if envelope["data"]["results"] else None

    searched = wait_for(found, 120, "the session to be searchable through the Inspector", every=1.0)
    assert searched["request"]["n_hits"] == 3 and searched["data"]["limit"] == 3
    session = searched["data"]["results"][0]["open"]["session_id"]
    opened = _call(home, "open", f"id={session}", "limit=1")
    assert opened["request"]["limit"] == 1
    assert len(opened["data"]["turns"]) == 1 and opened["data"]["next_cursor"] is not None
