"""Issue 43, item 2: running Moraine inside a cloned repository must not run the repository's code.

The planted folder stands for a hostile clone: a ``pickle.py`` that every child imports (the worker's frames, the
embedder's connection) and an ``evil-1.0.dist-info`` that registers a harness. Each planted module appends its
process id to a marker file when imported, then behaves as what it replaces, so only the marker tells.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from moraine.harnesses.registry import harnesses
from moraine.ingest.pipeline import ingest_paths
from moraine.plugins import installed_entry_points
from moraine.semantic.passage_process import PassageProcess
from moraine.store.client import Store
from tests.fixtures.planted import plant_pickle

CODEX_TRACES = Path(__file__).resolve().parents[1] / "harnesses" / "codex" / "home" / ".codex" / "sessions"

_EVIL = """
import os
with open({marker!r}, "a") as marker:
    marker.write(f"plugin {{os.getpid()}}\\n")
from moraine.harnesses import Harness
HARNESS = Harness(name="evil", display_name="Evil", adapter="evil_harness:Missing")
"""


@pytest.fixture
def clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A hostile folder as the current folder, a Moraine home of its own; yield the marker file's path."""
    folder = tmp_path / "clone"
    folder.mkdir()
    marker = tmp_path / "imported.txt"
    plant_pickle(folder, marker)
    (folder / "evil_harness.py").write_text(_EVIL.format(marker=str(marker)))
    info = folder / "evil-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: evil\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[moraine.harnesses]\nevil = evil_harness:HARNESS\n")
    home = tmp_path / "moraine-home"
    home.mkdir()
    monkeypatch.setenv("MORAINE_HOME", str(home))
    monkeypatch.chdir(folder)
    harnesses.cache_clear()
    yield marker
    harnesses.cache_clear()


def _imported(marker: Path) -> list[str]:
    return marker.read_text().splitlines() if marker.exists() else []


def test_ingest_workers_started_in_a_cloned_repository_import_none_of_its_modules_or_plugins(
    clone: Path, store: Store
) -> None:
    traces = sorted(CODEX_TRACES.rglob("*.jsonl"))

    summary = ingest_paths(store, traces, "codex", "codex", redact=False, workers=1, worker_min_bytes=0)

    assert _imported(clone) == []
    assert summary.workers == 1
    assert summary.events > 0


@pytest.mark.skipif(sys.platform != "linux", reason="reads the child's working folder from /proc")
def test_the_embedder_process_started_in_a_cloned_repository_imports_none_of_its_modules(
    clone: Path,
) -> None:
    process = PassageProcess(1)
    try:
        folder = os.readlink(f"/proc/{process.pid}/cwd")
        vectors = process.passages(["a passage"])
    finally:
        process.close()

    assert _imported(clone) == []
    assert folder == os.environ["MORAINE_HOME"]
    assert len(vectors) == 1


def test_a_distribution_in_the_current_folder_registers_no_plugin_even_on_the_module_path(
    clone: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What `python -m ...` or `python -c ...` started in the folder has: the folder first on sys.path.
    monkeypatch.syspath_prepend(os.getcwd())

    registered = harnesses()

    assert "evil" not in registered
    assert "codex" in registered
    assert [point.name for point in installed_entry_points("moraine.harnesses") if point.name == "evil"] == []
    assert _imported(clone) == []
