"""Issue 43, item 2, through a real daemon: ``moraine serve`` started inside a cloned repository, semantic recall
on, must not import the repository's ``pickle.py`` in any process it starts (the embedder process imports pickle
first thing, for its connection to the daemon)."""

from __future__ import annotations

import os
from pathlib import Path

from daemon_support import DaemonHome, codex_turn, wait_for
from tests.fixtures.planted import plant_pickle


def _embedders(daemon: int) -> list[int]:
    """Return the daemon's children that run the embedder process."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
            parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == daemon and b"moraine.semantic.passage_process" in cmdline:
            found.append(int(proc.name))
    return found


def test_a_daemon_served_from_a_cloned_repository_runs_its_embedder_without_the_repository_modules() -> None:
    with DaemonHome() as home:
        home.configure(semantic=True)
        home.seed_store()
        home.session_file("01960000-0000-7000-8000-000000000043").write_text(
            codex_turn(1, "which folder does the embedder run in", "its own home")
        )
        marker = home.root / "imported.txt"
        plant_pickle(home.root, marker)  # `moraine serve` runs here

        home.serve()
        state = home.wait_ready()
        [embedder] = wait_for(lambda: _embedders(state.pid), 60, "the embedder process to start")
        wait_for(lambda: home.report().counts["vectors"] > 0, 120, "the embedder to embed the session")

        assert not marker.exists(), marker.read_text()
        assert os.readlink(f"/proc/{embedder}/cwd") == str(home.moraine_home)
