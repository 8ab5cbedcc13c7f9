"""A daemon home with one Claude Code session that has no summary or title record and one Codex session, ingested
with ``moraine ingest``, and a real MCP client over stdio to ``moraine mcp`` for it (issue 20)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio
from daemon_support import MORAINE, DaemonHome, codex_turn
from mcp import Client

__all__ = [
    "CLAUDE_CWD",
    "CLAUDE_ID",
    "CLAUDE_PROMPT",
    "CODEX_ID",
    "WINDOW",
    "Call",
    "clients_home",
    "run_client",
]

T = TypeVar("T")
Call = Callable[[str, dict[str, Any]], Awaitable[Any]]

CLAUDE_ID = "7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
CLAUDE_CWD = "/home/dev/billing"
# A first line longer than the title allows, then a second line the title never shows.
CLAUDE_PROMPT = (
    "Make the invoice export stream its rows to the browser instead of loading the whole ledger table into memory"
    "\nThe export lives in billing/export.py."
)
CODEX_ID = "0196b000-0000-7000-8000-00000000c0de"
WINDOW = {"start_datetime": "2026-01-01T00:00:00Z", "end_datetime": "2027-01-01T00:00:00Z"}


def _claude_trace() -> str:
    common = {"isSidechain": False, "cwd": CLAUDE_CWD, "sessionId": CLAUDE_ID, "version": "2.1.30"}
    records = [
        {
            **common,
            "parentUuid": None,
            "type": "user",
            "message": {"role": "user", "content": CLAUDE_PROMPT},
            "uuid": "u-1",
            "timestamp": "2026-03-06T14:00:02.014Z",
        },
        {
            **common,
            "parentUuid": "u-1",
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "The invoice export now streams rows with a generator."}
                ],
                "model": "claude-opus-4-5-20251101",
                "stop_reason": "end_turn",
            },
            "uuid": "a-1",
            "timestamp": "2026-03-06T14:00:09.000Z",
        },
    ]
    return "".join(json.dumps(r) + "\n" for r in records)


def clients_home() -> DaemonHome:
    """Return a home whose store already holds both sessions (the caller cleans it up)."""
    home = DaemonHome()
    home.configure(start_timeout_seconds=300)  # a busy CI machine may start the daemon slowly
    home.seed_store()
    home.session_file(CODEX_ID).write_text(
        codex_turn(
            0, "Why does the nightly reconciliation job skip refunds?", "It filtered on status=settled."
        )
    )
    project = home.root / ".claude" / "projects" / "-home-dev-billing"
    project.mkdir(parents=True)
    (project / f"{CLAUDE_ID}.jsonl").write_text(_claude_trace())
    done = subprocess.run(
        [str(MORAINE), "ingest"], env=home.env, cwd=home.root, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return home


def run_client(home: DaemonHome, script: Callable[[Call], Awaitable[T]]) -> T:
    """Spawn ``moraine mcp`` for ``home`` and run ``script`` with ``call(tool, arguments) -> CallToolResult``."""

    async def main() -> T:
        async with Client(home.relay_params(), read_timeout_seconds=120) as client:
            return await script(client.call_tool)

    return anyio.run(main)
