"""The vectorizer's embedder process: the same vectors as in-process, stopped while a tool call runs, and gone
with its parent even when stopped."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import anyio
import pytest

from handlers import Deps, Settings, load_handlers
from moraine.in_flight import stand_aside
from moraine.semantic.embedder import load_embedder
from moraine.semantic.passage_process import PassageProcess
from moraine.server.service import ToolService
from moraine.store.client import Store

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="pausing the process is Linux-only")


def _state(pid: int) -> str:
    """The process's scheduler state from /proc (T: stopped)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0]


def _alive(pid: int) -> bool:
    try:
        return _state(pid) != "Z"
    except FileNotFoundError:
        return False


@pytest.fixture(scope="module")
def process() -> Any:
    embedder = PassageProcess(1)
    yield embedder
    embedder.close()


def test_passages_match_the_in_process_model(process: PassageProcess) -> None:
    texts = ["the flaky migration test failed again", "Der Build ist rot"]
    ours, theirs = process.passages(texts), load_embedder(1).passages(texts)
    assert len(ours) == 2 and all(len(v) == 384 for v in ours)
    for a, b in zip(ours, theirs, strict=True):
        assert math.isclose(sum(x * y for x, y in zip(a, b, strict=True)), 1.0, abs_tol=1e-4)
    assert process.passages([]) == []


def test_a_tool_call_stops_the_process_until_it_ends(process: PassageProcess, store: Store) -> None:
    seen: list[str] = []
    handlers = load_handlers()
    answer = handlers["list_sessions"].handle

    def watched(request: Any, deps: Deps) -> Any:
        seen.append(_state(process.pid))
        return answer(request, deps)

    handlers["list_sessions"] = replace(handlers["list_sessions"], handle=watched)
    service = ToolService(Deps(store=store, settings=Settings(max_results=50), launch_dir=None), handlers)
    release = stand_aside(process)
    try:
        window = {"start_datetime": "2020-01-01T00:00:00Z", "end_datetime": "2030-01-01T00:00:00Z"}
        reply = anyio.run(service.call, "list_sessions", window)
        assert not reply.is_error
        assert seen == ["T"]  # stopped while the handler ran
        assert _state(process.pid) != "T"  # continued after it
        assert len(process.passages(["still answering"])) == 1
    finally:
        release()


def test_the_process_dies_with_its_parent_even_when_stopped() -> None:
    parent = subprocess.run(
        [sys.executable, "-c",
         "import os, sys\n"
         "from moraine.semantic.passage_process import PassageProcess\n"
         "p = PassageProcess(1)\n"
         "p.pause()\n"
         "print(p.pid, flush=True)\n"
         "os.kill(os.getpid(), 9)\n"],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
    )  # fmt: skip
    assert parent.returncode == -signal.SIGKILL, parent.stderr
    child = int(parent.stdout.split()[0])
    deadline = time.monotonic() + 30
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)  # polling the kernel's process table for the exit, not waiting for a guess
    assert not _alive(child)
