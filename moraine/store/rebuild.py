"""Copy a large table into a new layout in slices of session keys: a progress line per slice, resumable after a kill.

A migration that reshapes a table the size of the postings (66 M rows at 1,000,000 records) copies it into
``<table>_rebuild`` one sixteenth of the session-key space at a time (the top four bits of ``session_key``, which is a
hash, so the slices are even), records each finished slice in ``migration_steps``, then swaps the two tables
atomically and drops the old one. Started again after a kill, it keeps the finished slices, deletes whatever the
interrupted slice had written, and goes on from there; after the swap it only drops what is left. Nothing writes to
the table meanwhile: migrations run when a store is opened, before anything else uses it.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from moraine.store.client import Store

__all__ = ["DIE_AFTER_SLICES_ENV", "SLICES", "rebuild_in_slices"]

SLICES = 16
# Test hook: kill this process with SIGKILL after that many slices are copied (a kill half-way through).
DIE_AFTER_SLICES_ENV = "MORAINE_TEST_DIE_AFTER_SLICES"
_SLICE = "bitShiftRight(session_key, 60) = {slice:UInt8}"


def _say(line: str) -> None:
    print(f"moraine: {line}", file=sys.stderr, flush=True)


def rebuild_in_slices(
    store: Store,
    version: int,
    table: str,
    create: str,
    columns: Sequence[str],
    keep: Callable[[], None],
    say: Callable[[str], None] = _say,
    sorting_key: str | None = None,
) -> None:
    """Copy ``columns`` of ``table`` into the layout ``create`` (a ``CREATE TABLE IF NOT EXISTS {target} ...``
    statement) and swap it in; ``version`` names the migration in ``migration_steps``. The table is in its new
    layout once it has these columns and, when given, this sorting key (as ``system.tables`` writes it)."""
    target = f"{table}_rebuild"
    store.command(
        f"CREATE TABLE IF NOT EXISTS {store.table('migration_steps')} (version UInt32, step UInt32) "
        "ENGINE = MergeTree ORDER BY (version, step)"
    )
    names, key = _layout(store, table)
    if names != list(columns) or (sorting_key is not None and key != sorting_key):  # not swapped yet
        done = _steps(store, version)
        if not done:  # a first slice cut short leaves nothing worth keeping
            store.command(f"DROP TABLE IF EXISTS {store.table(target)}")
        store.command(create.format(target=store.table(target)))
        rows = int(store.query(f"SELECT count() FROM {store.table(table)}")[0][0])
        pending = [index for index in range(SLICES) if index not in done] if rows else []
        if pending:
            say(f"upgrading the store: copying {table} ({rows:,} rows) to a new layout in {SLICES} steps")
        if done and pending:  # the slice a kill interrupted may be half there
            store.command(f"DELETE FROM {store.table(target)} WHERE {_SLICE}", {"slice": pending[0]})
        chosen = ", ".join(columns)
        for index in pending:
            keep()
            store.command(
                f"INSERT INTO {store.table(target)} ({chosen}) SELECT {chosen} FROM {store.table(table)} "
                f"WHERE {_SLICE}",
                {"slice": index},
            )
            store.insert("migration_steps", [[version, index]], ["version", "step"])
            done.add(index)
            say(f"upgrading the store: {table} {len(done)}/{SLICES} copied to their new layout")
            _die_after(len(done))
        store.command(f"EXCHANGE TABLES {store.table(table)} AND {store.table(target)}")
    store.command(f"DROP TABLE IF EXISTS {store.table(target)}")


def _layout(store: Store, table: str) -> tuple[list[str], str]:
    """The table's column names in order, and its sorting key."""
    where = {"db": store.database, "table": table}
    rows = store.query(
        "SELECT name FROM system.columns WHERE database = {db:String} AND table = {table:String} ORDER BY position",
        where,
    )
    key = store.query(
        "SELECT sorting_key FROM system.tables WHERE database = {db:String} AND name = {table:String}", where
    )
    return [str(row[0]) for row in rows], str(key[0][0]) if key else ""


def _steps(store: Store, version: int) -> set[int]:
    rows = store.query(
        f"SELECT step FROM {store.table('migration_steps')} WHERE version = {{version:UInt32}}",
        {"version": version},
    )
    return {int(row[0]) for row in rows}


def _die_after(copied: int) -> None:
    limit = os.environ.get(DIE_AFTER_SLICES_ENV)
    if limit is not None and copied >= int(limit):
        os.kill(os.getpid(), signal.SIGKILL)
