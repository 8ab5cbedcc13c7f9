"""The conformance runner against our own server: ``moraine mcp`` over stdio on a ``moraine ingest``-ed corpus.

It prints an all-PASS table, and exits non-zero when a row fails (shown by telling it a malformed ID is a
well-formed unknown one, so the not_found rows get invalid_id).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fixtures.corpus.stdio import MORAINE, Home, prepare_home
from fixtures.home_daemon import stop_daemons

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Home]:
    """The corpus home; the daemon the first run's ``moraine mcp`` starts serves the second run too (a start
    saved), and is stopped when the module ends."""
    home = prepare_home(tmp_path_factory.mktemp("conformance-home"))
    try:
        yield home
    finally:
        stop_daemons([home.path / ".moraine"])


def _run(home: Home, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "tools.conformance", "--stdio", f"{MORAINE} mcp", *extra]
    env = {**home.env(), "PYTHONPATH": str(ROOT)}
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_the_runner_prints_an_all_pass_table_against_our_server(home: Home) -> None:
    done = _run(home)
    print(done.stdout)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    rows = [line for line in done.stdout.splitlines() if line.startswith(("PASS ", "FAIL "))]
    assert len(rows) >= 85 and all(row.startswith("PASS") for row in rows)
    for required in ("search_sessions: query + within_id=turn", "list_sessions: range + cursor",
                     "open: stale or wrong-kind cursor", "traversal: every turn once via cursors"):  # fmt: skip
        assert any(required in row for row in rows), required
    assert done.stdout.rstrip().endswith(f"{len(rows)}/{len(rows)} PASS")


@pytest.mark.slow
def test_the_runner_exits_non_zero_when_a_row_fails(home: Home) -> None:
    done = _run(home, "--unknown-session-id", "not-a-valid-id")
    assert done.returncode == 1, done.stdout[-4000:] + done.stderr[-2000:]
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAIL ")]
    assert any(
        "open: well-formed unknown id (session)" in line and "got invalid_id" in line for line in failed
    )
    assert "FAIL" in done.stdout.splitlines()[-1]
