"""A fake home holding harnesses' fixtures, ingested through each harness's declared locations.

Each ``tests/harnesses/<pkg>/home/`` holds fixture files at the paths its harness's Linux ``Location.glob`` names
(a SQLite store as a ``.sql`` dump beside where the database goes). ``build_home`` copies them into one home and
builds the databases; ``ingest_home`` finds each location's files in that home by its glob and ingests them as
that source, with the reader the location names. ``Expectation`` is a harness's ``expect.json``.
"""

from __future__ import annotations

import glob
import json
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tests.harnesses.harness_records import sqlite_from_dump

from moraine.harnesses.registry import harness
from moraine.ingest.pipeline import ingest_paths
from moraine.store.client import Store

__all__ = ["GROUP", "HARNESS_TESTS", "Expectation", "build_home", "ingest_home"]

HARNESS_TESTS = Path(__file__).resolve().parent
# The harness packages this group added, each with home/ and expect.json.
GROUP = ["goose", "aider", "openhands", "zed", "amp", "devin_cli", "mistral_vibe", "gptme", "omnigent"]


@dataclass(frozen=True)
class Expectation:
    """What a harness's fixtures must show end to end (its ``expect.json``)."""

    package: str
    harness: str
    source: str
    keyword: str
    title: str
    touched_file: str
    sessions: int
    resume: str | None
    usage: bool

    @classmethod
    def load(cls, package: str) -> Expectation:
        """Read ``tests/harnesses/<package>/expect.json``."""
        data = json.loads((HARNESS_TESTS / package / "expect.json").read_text(encoding="utf-8"))
        return cls(package=package, **data)


def build_home(packages: Iterable[str], home: Path) -> Path:
    """Copy each package's ``home/`` into ``home`` and build every ``*.sql`` dump into its database."""
    for package in packages:
        shutil.copytree(HARNESS_TESTS / package / "home", home, dirs_exist_ok=True)
    for dump in sorted(home.rglob("*.sql")):
        sqlite_from_dump(dump, dump.with_suffix(""))
    return home


def located(name: str, home: Path) -> dict[str, tuple[str, list[Path]]]:
    """Return, per source of harness ``name``, its reader and the files its Linux glob matches under ``home``."""
    declared = harness(name)
    assert declared is not None, f"harness {name} is not registered"
    found: dict[str, tuple[str, list[Path]]] = {}
    for location in declared.locations:
        if location.glob is None:
            continue
        pattern = location.glob.replace("~", str(home), 1)
        files = sorted(Path(p) for p in glob.glob(pattern, recursive=True) if Path(p).is_file())
        found[location.source] = (location.reader, files)
    return found


def ingest_home(store: Store, names: Iterable[str], home: Path) -> dict[str, int]:
    """Ingest every location of the harnesses ``names`` found under ``home``; return the files read per source."""
    counts: dict[str, int] = {}
    for name in names:
        for source, (reader, files) in located(name, home).items():
            if files:
                ingest_paths(store, files, source=source, harness=name, format=reader)
            counts[source] = len(files)
    return counts
