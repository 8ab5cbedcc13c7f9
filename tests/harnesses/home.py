"""The shared harness home: every ``tests/harnesses/<pkg>/home/`` in one temporary HOME, and what each expects.

Each harness folder keeps its fixtures under ``home/`` at the paths its Linux locations name; a SQLite store is
committed as a ``.sql`` dump beside where the database goes (``state.vscdb.sql`` -> ``state.vscdb``), built here.
``expect.json`` says what the shared end-to-end test (``test_harnesses_e2e.py``) and the harness table
(``python -m tools.harnesses``) look for. A new harness folder with both is picked up with no change here.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from moraine.config import default_sources
from moraine.harnesses import harnesses
from moraine.harnesses._shared.export import export_source, find_export, place_export

__all__ = [
    "HARNESS_TESTS",
    "Expectation",
    "build_dumps",
    "build_home",
    "expectations",
    "fixture_files",
    "settle",
    "write_config",
]

HARNESS_TESTS = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class Expectation:
    """One harness folder's ``expect.json`` (see the fixture convention in the module docstring)."""

    folder: Path
    harness: str
    source: str
    keyword: str  # planted in one user or assistant message, found in no other fixture
    title: str
    touched_file: str | None  # absolute path an edit tool of the fixture touched
    sessions: int  # sessions of this harness in its fixtures
    resume: str | None  # the resume command of the keyword's session
    usage: bool  # the fixtures record token usage

    @classmethod
    def load(cls, path: Path) -> Expectation:
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            folder=path.parent,
            harness=data["harness"],
            source=data["source"],
            keyword=data["keyword"],
            title=data["title"],
            touched_file=data.get("touched_file"),
            sessions=int(data["sessions"]),
            resume=data.get("resume"),
            usage=bool(data.get("usage", False)),
        )


def expectations() -> list[Expectation]:
    """Return every harness folder's expectation, sorted by folder."""
    return [Expectation.load(path) for path in sorted(HARNESS_TESTS.glob("*/expect.json"))]


def fixture_files(folder: Path) -> list[Path]:
    """Return the files of a harness folder's fake home and data export (a dump counts as the database it builds)."""
    return sorted(
        path for part in ("home", "export") for path in (folder / part).rglob("*") if path.is_file()
    )


def build_home(root: Path) -> Path:
    """Copy every harness folder's ``home/`` into ``root`` and build each ``*.sql`` dump into its database."""
    root.mkdir(parents=True, exist_ok=True)
    for home in sorted(HARNESS_TESTS.glob("*/home")):
        shutil.copytree(home, root, dirs_exist_ok=True)
    for export in sorted(
        HARNESS_TESTS.glob("*/export")
    ):  # data exports, kept where `moraine import` keeps them
        place_export(find_export(export), root / ".moraine")
    return settle(build_dumps(root))


def build_dumps(root: Path) -> Path:
    """Build every ``*.sql`` dump under ``root`` into the SQLite database beside it (named without ``.sql``)."""
    for dump in sorted(root.rglob("*.sql")):
        database = dump.with_suffix("")
        connection = sqlite3.connect(database)
        try:
            connection.executescript(dump.read_text(encoding="utf-8"))
            connection.commit()
        finally:
            connection.close()
        dump.unlink()
    return root


def settle(root: Path) -> Path:
    """Date every file under ``root`` a day back, as on a machine where no agent is writing right now (readers
    hold back the newest part of a file that was written a moment ago)."""
    quiet = time.time() - 86400
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, (quiet, quiet))
    return root


def write_config(moraine_home: Path, store: str | None = None, database: str | None = None) -> Path:
    """Write a ``config.toml`` that enables every standard source (opt-in ones too) and no semantic search."""
    lines = ["[ingest]", "workers = 0", "[semantic]", "enabled = false"]
    if store is not None:
        lines += ["[store]", f"dsn = {json.dumps(store)}", f"database = {json.dumps(database or 'moraine')}"]
    for source in default_sources():
        if not source.enabled:
            lines += ["[[sources]]", f"name = {json.dumps(source.name)}", "enabled = true"]
    for (
        name,
        declared,
    ) in harnesses().items():  # the exports build_home placed, read as `moraine import` reads them
        if declared.importer:
            source = export_source(name, moraine_home)
            lines += ["[[sources]]", *(f"{key} = {json.dumps(value)}" for key, value in (
                ("name", source.name), ("harness", name), ("glob", source.glob), ("format", source.format)))]  # fmt: skip
    moraine_home.mkdir(parents=True, exist_ok=True)
    path = moraine_home / "config.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
