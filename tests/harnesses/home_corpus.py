"""A fake home holding the fixtures of several harnesses, ingested from their standard locations into one store.

Each harness's ``tests/harnesses/<pkg>/home/`` is copied into one temporary HOME (a ``*.sql`` dump is built into
the SQLite database named by the dump's path without ``.sql``) and every file is dated a day back, as on a machine
where no agent is running right now; the harness's standard sources (its registered
locations, Linux paths) are discovered under that HOME and ingested, so the test proves the default globs, the
readers and the adapters together. ``expect.json`` beside ``home/`` says what the corpus must show.
"""

from __future__ import annotations

from tests.harnesses.home import build_dumps, settle

import json
import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from moraine.config import SourceConfig, default_sources
from moraine.ingest.discovery import discover
from moraine.ingest.pipeline import Ingestor, IngestSummary
from moraine.store.client import Store

__all__ = ["HARNESS_TESTS", "Expect", "build_home", "expectation", "ingest_home"]

HARNESS_TESTS = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Expect:
    """The ``expect.json`` of one harness (see the fixture convention in the module docstring)."""

    pkg: str
    harness: str
    source: str
    keyword: str
    title: str
    touched_file: str | None  # None for a harness whose trace records no tool calls
    sessions: int
    resume: str | None
    usage: bool


def expectation(pkg: str) -> Expect:
    """Return the expectation of the harness whose tests are in ``tests/harnesses/<pkg>``."""
    data: dict[str, Any] = json.loads((HARNESS_TESTS / pkg / "expect.json").read_text(encoding="utf-8"))
    return Expect(pkg=pkg, **data)


def build_home(pkgs: Iterable[str], home: Path) -> Path:
    """Copy the fixture homes of ``pkgs`` into ``home`` and build their SQLite dumps; return ``home``."""
    for pkg in pkgs:
        shutil.copytree(HARNESS_TESTS / pkg / "home", home, dirs_exist_ok=True)
    return settle(build_dumps(home))


def ingest_home(store: Store, home: Path, harnesses: Iterable[str]) -> IngestSummary:
    """Ingest the standard sources of ``harnesses`` found under ``home`` (HOME is switched while discovering)."""
    wanted = set(harnesses)
    previous = os.environ.get("HOME")
    os.environ["HOME"] = str(home)
    try:
        sources = [s for s in default_sources("linux") if s.harness in wanted]
        found = {s.name: discover(s) for s in sources}
    finally:
        if previous is None:
            del os.environ["HOME"]
        else:
            os.environ["HOME"] = previous
    resolved = [_resolved(s, home) for s in sources]
    return Ingestor(store).run(resolved, found)


def _resolved(source: SourceConfig, home: Path) -> SourceConfig:
    """Return ``source`` with ``~`` spelled out as ``home`` (the ingest reads it after HOME is restored)."""
    return replace(
        source,
        glob=source.glob.replace("~", str(home), 1),
        watch_root=source.watch_root.replace("~", str(home), 1),
    )
