"""Build a fake home from harnesses' fixture folders (``tests/harnesses/<pkg>/home/``) and read ``expect.json``.

Every file is copied to the same place under one temporary HOME; a ``*.sql`` dump is built into the SQLite
database beside it (named without ``.sql``) instead of being copied.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

__all__ = ["HARNESS_TESTS", "Expect", "build_home", "expectation"]

HARNESS_TESTS = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Expect:
    """What one harness's fixtures must show end to end (the fields of its ``expect.json``)."""

    package: str
    harness: str
    source: str
    keyword: str
    title: str
    touched_file: str | None  # None: the traces read record no tool calls
    sessions: int
    resume: str | None
    usage: bool


def expectation(package: str) -> Expect:
    """Return ``tests/harnesses/<package>/expect.json``."""
    data = json.loads((HARNESS_TESTS / package / "expect.json").read_text(encoding="utf-8"))
    return Expect(package=package, **data)


def build_home(packages: list[str], home: Path) -> Path:
    """Copy each package's ``home/`` into ``home`` (SQL dumps built into databases); return ``home``."""
    for package in packages:
        root = HARNESS_TESTS / package / "home"
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            target = home / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            if path.suffix == ".sql":
                connection = sqlite3.connect(target.with_suffix(""))
                connection.executescript(path.read_text(encoding="utf-8"))
                connection.commit()
                connection.close()
            else:
                shutil.copyfile(path, target)
    return home
