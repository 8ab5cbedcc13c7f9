"""The shared harness home: every ``tests/harnesses/<pkg>/home/`` in one temporary HOME, and what each expects.

Each harness folder keeps its fixtures under ``home/`` at the paths its Linux locations name; a SQLite store is
committed as a ``.sql`` dump beside where the database goes (``state.vscdb.sql`` -> ``state.vscdb``), built here.
``expect.json`` says what the shared end-to-end test (``test_harnesses_e2e.py``) and the harness table
(``python -m tools.harnesses``) look for. A new harness folder with both is picked up with no change here.
``search`` and ``harness_sessions`` read back what an ingested home holds, through the tools' handlers.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.fixtures.requests import list_request, search_request

from tests.fixtures.handler_data import list_data, search_data
from moraine.config import default_sources
from moraine.harnesses import harnesses
from moraine.config import export_source
from moraine.harnesses._shared.export import find_export
from moraine.store.client import Store
from moraine.store.reads.search import Bm25

__all__ = [
    "HARNESS_TESTS",
    "SECRET",
    "Expectation",
    "build_database",
    "build_dumps",
    "build_home",
    "expectations",
    "fixture_files",
    "harness_sessions",
    "holding_lock",
    "search",
    "settle",
    "write_config",
]

HARNESS_TESTS = Path(__file__).resolve().parent
SECRET = "harness-tests-secret"  # the cursor secret of the handlers called here


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


def build_home(root: Path, pkgs: Iterable[str] | None = None) -> Path:
    """Copy the ``home/`` of every harness folder (or of the folders ``pkgs``) into ``root``, place every data export
    (with all folders), build each ``*.sql`` dump into its database and date the files back; return ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    folders = (
        sorted(HARNESS_TESTS.glob("*/home")) if pkgs is None else [HARNESS_TESTS / p / "home" for p in pkgs]
    )
    for home in folders:
        shutil.copytree(home, root, dirs_exist_ok=True)
    if pkgs is None:
        for export in sorted(HARNESS_TESTS.glob("*/export")):  # data exports, under a folder of their own
            found = find_export(export)
            folder = _exports(root, found.harness)
            folder.mkdir(parents=True, exist_ok=True)
            for name in found.files:
                shutil.copyfile(name, folder / Path(name).name)
    return settle(build_dumps(root))


def _exports(root: Path, harness: str) -> Path:
    """Return where ``build_home`` puts ``harness``'s data export (``moraine import`` reads one where it lies)."""
    return root / "exports" / harness


def build_dumps(root: Path) -> Path:
    """Build every ``*.sql`` dump under ``root`` into the SQLite database beside it (named without ``.sql``)."""
    for dump in sorted(root.rglob("*.sql")):
        build_database(dump, dump.with_suffix(""))
        dump.unlink()
    return root


def build_database(dump: Path, database: Path, journal: str | None = None) -> Path:
    """Build ``database`` from the SQL ``dump`` (in ``journal`` mode, e.g. ``wal``, when given) and return it."""
    connection = sqlite3.connect(database)
    try:
        if journal is not None:
            connection.execute(f"PRAGMA journal_mode={journal}")
        connection.executescript(dump.read_text(encoding="utf-8"))
        connection.commit()
    finally:
        connection.close()
    return database


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
            source = export_source(name, str(_exports(moraine_home.parent, name) / "conversations*.json"))
            lines += ["[[sources]]", *(f"{key} = {json.dumps(value)}" for key, value in (
                ("name", source.name), ("harness", name), ("glob", source.glob), ("format", source.format)))]  # fmt: skip
    moraine_home.mkdir(parents=True, exist_ok=True)
    path = moraine_home / "config.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def search(
    store: Store, query: str, harness: str | None = None, source: str | None = None
) -> list[dict[str, Any]]:
    """Return the ``search_sessions`` results for ``query`` among user and assistant messages (of ``harness``,
    ``source``)."""
    request = search_request(
        query=query,
        event_types=["user_input", "assistant_response"],
        harness=harness,
        source=source,
        n_hits=20,
    )
    data = search_data(store, request, bm25=Bm25(), snippet_chars=200)
    return list(data["results"])


def harness_sessions(store: Store, harness: str) -> list[dict[str, Any]]:
    """Return the session objects ``list_sessions`` gives for ``harness`` over all time (newest first)."""
    request = list_request(
        SECRET,
        max_results=100,
        start_datetime="1970-01-02T00:00:00Z",
        end_datetime="2100-01-01T00:00:00Z",
        limit=100,
        harness=harness,
        sort="desc",
    )
    listed = list_data(store, request, cursor_secret=SECRET)
    return [row["session"] for row in listed["sessions"]]


_LOCKER = """
import sqlite3, sys

c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
exec(sys.argv[2])
print("locked", flush=True)
sys.stdin.readline()
c.execute("COMMIT")
print("committed", flush=True)
sys.stdin.readline()
"""


@contextmanager
def holding_lock(database: Path, writes: str) -> Iterator[Callable[[], None]]:
    """Run ``writes`` (Python statements on the connection ``c``) in an exclusive transaction on ``database`` in
    another process, as an agent writing its store would; inside, the lock is held until the yielded ``commit()``
    returns (the writes committed). The process is ended on leaving, the lock released, waits bounded."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _LOCKER, str(database), writes],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    stdin, stdout = holder.stdin, holder.stdout

    def commit() -> None:
        stdin.write("\n")
        stdin.flush()
        assert stdout.readline().strip() == "committed"

    try:
        assert stdout.readline().strip() == "locked"
        yield commit
    finally:
        stdin.write("\n")
        stdin.close()
        holder.wait(timeout=30)
