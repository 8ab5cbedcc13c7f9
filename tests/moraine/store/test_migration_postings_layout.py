"""Migrations 016 (the slim columns) and 017 (sorted by term and type) copy the postings into a new layout: every row
kept, a progress line per slice, and a copy killed half-way resumes from the slices it had finished.

Each case runs in subprocesses (a chDB directory belongs to one process at a time, and the kill is a real SIGKILL):
the first builds a store as the migration before it left it, with postings in every slice of the session-key space;
the next migrates it up to the migration under test.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import uuid
from typing import NamedTuple
from pathlib import Path

import pytest

from moraine.store.rebuild import DIE_AFTER_SLICES_ENV, SLICES

ROOT = Path(__file__).resolve().parents[3]
_WIDE = (
    "term", "session_key", "seq", "turn_seq", "tf", "doc_len", "type", "harness", "source", "timestamp",
    "stream_id", "source_offset",
)  # fmt: skip
_SLIM = ("term", "session_key", "seq", "tf", "doc_len", "type", "timestamp")


class Layout(NamedTuple):
    version: int  # the migration under test
    before: tuple[str, ...]  # the postings' columns as the migration before it left them
    sorting_key: str  # system.tables' sorting key after it


LAYOUTS = [
    Layout(16, _WIDE, "term, session_key, seq"),
    Layout(17, _SLIM, "term, type, session_key, seq"),
]

_OLD = """
import json, sys
from moraine.store.client import Store
store = Store(sys.argv[1], sys.argv[2])
store.migrate(until=int(sys.argv[5]) - 1)
rows = json.loads(sys.argv[3])
store.insert("postings", rows, json.loads(sys.argv[4]))
"""
_OPEN = """
import json, sys
from moraine.store.client import Store
store = Store(sys.argv[1], sys.argv[2])
store.migrate(until=int(sys.argv[4]))
t = store.table
store.insert_columns("postings_in", [["fresh\\nword"], [[2, 1]], [7], [1], [3], ["user_input"], [None]],
                     ["terms", "tfs", "session_key", "seq", "doc_len", "type", "timestamp"])
print(json.dumps({
    "columns": [r[0] for r in store.query("SELECT name FROM system.columns WHERE database = {d:String} "
                                           "AND table = 'postings' ORDER BY position", {"d": sys.argv[2]})],
    "rows": sorted(list(map(str, r)) for r in store.query(f"SELECT {', '.join(json.loads(sys.argv[3]))} FROM {t('postings')}")),
    "tables": sorted(r[0] for r in store.query("SELECT name FROM system.tables WHERE database = {d:String}",
                                                {"d": sys.argv[2]})),
    "migrated": [r[0] for r in store.query(f"SELECT version FROM {t('schema_migrations')} WHERE version >= 16")],
    "sorting_key": store.query("SELECT sorting_key FROM system.tables WHERE database = {d:String} "
                               "AND name = 'postings'", {"d": sys.argv[2]})[0][0],
}))
"""


def _wide_rows() -> list[list[object]]:
    """Postings of 64 sessions whose keys cover every slice (the top four bits of the key), a few terms each, of
    two event types."""
    pick = random.Random(16)
    rows: list[list[object]] = []
    for n in range(64):
        key = ((n % SLICES) << 60) | pick.getrandbits(60)
        for seq in range(1, 4):
            for term in ("alpha", "beta", f"only{n}"):
                stamp = None if seq == 3 else f"2026-07-0{seq} 10:00:00.{n:03d}"
                rows.append(
                    [
                        term,
                        key,
                        seq,
                        seq,
                        seq + 1,
                        10 * seq,
                        "user_input" if seq % 2 else "tool_call",
                        "codex",
                        "work",
                        stamp,
                        n,
                        seq * 100,
                    ]
                )
    return rows


@pytest.fixture
def target(tmp_path: Path) -> tuple[str, str]:
    """This case's (dsn, database): a chDB directory of its own, or a fresh database on ``CLICKHOUSE_URL``."""
    url = os.environ.get("CLICKHOUSE_URL")
    if url:
        return url, f"slim_{uuid.uuid4().hex[:12]}"
    return f"chdb://{tmp_path / 'store'}", "moraine"


def _run(script: str, *args: str, die_after: int | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop(DIE_AFTER_SLICES_ENV, None)
    if die_after is not None:
        env[DIE_AFTER_SLICES_ENV] = str(die_after)
    return subprocess.run(
        [sys.executable, "-c", script, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=240
    )


def _old_store(target: tuple[str, str], layout: Layout) -> list[list[object]]:
    """Build the store the migration under test starts from; return its postings rows in the new columns."""
    wide = _wide_rows()
    rows = [[row[_WIDE.index(column)] for column in layout.before] for row in wide]
    made = _run(_OLD, *target, json.dumps(rows), json.dumps(layout.before), str(layout.version))
    assert made.returncode == 0, made.stderr[-2000:]
    return wide


def _expected(rows: list[list[object]]) -> list[list[str]]:
    keep = [_WIDE.index(column) for column in _SLIM]
    projected = [[row[i] for i in keep] for row in rows]
    projected.append(["fresh", 7, 1, 2, 3, "user_input", None])
    projected.append(["word", 7, 1, 1, 3, "user_input", None])
    return sorted([str(value) if value is not None else "None" for value in row] for row in projected)


def _opened(target: tuple[str, str], layout: Layout) -> tuple[dict[str, object], str]:
    done = _run(_OPEN, *target, json.dumps(_SLIM), str(layout.version))
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


def _stamps(rows: list[list[str]]) -> list[list[str]]:
    """The rows with their timestamps as ``str(datetime)`` prints them, written as the inserts wrote them."""
    return [row[:6] + [_millis(row[6])] for row in rows]


def _millis(stamp: str) -> str:
    if stamp == "None":
        return stamp
    day, _, fraction = stamp[:26].partition(".")
    return f"{day}.{(fraction or '0')[:3].ljust(3, '0')}"


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: str(layout.version))
def test_the_postings_keep_every_row_in_the_new_layout_and_say_how_far_the_copy_is(
    target: tuple[str, str], layout: Layout
) -> None:
    rows = _old_store(target, layout)
    found, said = _opened(target, layout)
    assert found["columns"] == list(_SLIM)
    assert found["sorting_key"] == layout.sorting_key
    assert _stamps(found["rows"]) == _expected(rows)  # type: ignore[arg-type]
    assert found["migrated"] == list(range(16, layout.version + 1))
    assert "postings_rebuild" not in found["tables"]  # type: ignore[operator]
    assert f"copying postings ({len(rows):,} rows) to a new layout in {SLICES} steps" in said
    assert [line for line in said.splitlines() if "copied to their new layout" in line][-1].endswith(
        f"postings {SLICES}/{SLICES} copied to their new layout"
    )


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: str(layout.version))
def test_a_copy_killed_half_way_resumes_from_its_finished_slices_and_ends_with_every_row_once(
    target: tuple[str, str], layout: Layout
) -> None:
    rows = _old_store(target, layout)
    killed = _run(_OPEN, *target, json.dumps(_SLIM), str(layout.version), die_after=SLICES // 2)
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    assert f"postings {SLICES // 2}/{SLICES} copied" in killed.stderr
    found, said = _opened(target, layout)
    assert f"postings {SLICES // 2 + 1}/{SLICES} copied" in said  # it went on from there
    assert f"postings 1/{SLICES} copied" not in said
    assert _stamps(found["rows"]) == _expected(rows)  # type: ignore[arg-type]
    assert found["columns"] == list(_SLIM)
    assert found["sorting_key"] == layout.sorting_key
    assert found["migrated"] == list(range(16, layout.version + 1))
