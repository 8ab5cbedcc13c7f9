"""What every registered harness's fixtures yield once ingested: one row per harness, and a count line."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from moraine.config import load_config
from moraine.harnesses import harnesses
from moraine.ingest.pipeline import ingest_once
from moraine.resume import resume_command
from moraine.store.client import Store
from moraine.store.reads.labels import session_title
from tests.harnesses.home import HARNESS_TESTS, build_home, fixture_files, write_config

__all__ = ["HarnessRow", "collect", "render_table"]

_COLUMNS = ("harness", "fixture files", "sessions", "events", "touches", "titles", "resume commands", "usage")


@dataclass(frozen=True, slots=True)
class HarnessRow:
    """One harness's counts (``usage``: events that carry token usage)."""

    harness: str
    fixture_files: int
    sessions: int
    events: int
    touches: int
    titles: int
    resume_commands: int
    usage: int

    @property
    def read(self) -> bool:
        """Whether its fixtures yielded sessions and events at all."""
        return self.sessions > 0 and self.events > 0


def collect(scratch: Path) -> list[HarnessRow]:
    """Build the shared home under ``scratch``, ingest every standard source from it, and count per harness."""
    home = build_home(scratch / "home")
    os.environ["HOME"] = str(home)  # the standard locations are under ~
    os.environ["MORAINE_HOME"] = str(home / ".moraine")
    os.environ.pop("MORAINE_CONFIG", None)
    write_config(home / ".moraine")
    config = load_config()
    store = Store.open(config.store_dsn, config.database, limits=config.store_limits)
    try:
        ingest_once(store, config)
        return _rows(store)
    finally:
        store.close()


def _rows(store: Store) -> list[HarnessRow]:
    sessions = store.query(
        f"SELECT harness, harness_session_id, title, first_user_message, cwd FROM {store.table('sessions')} FINAL"
    )
    counted: Counter[str] = Counter()
    titled: Counter[str] = Counter()
    resumable: Counter[str] = Counter()
    for harness, native, title, first, cwd in sessions:
        counted[harness] += 1
        titled[harness] += session_title(title, first) is not None
        resumable[harness] += resume_command(harness, native, cwd) is not None
    events = dict(
        (str(harness), (int(total), int(usage)))
        for harness, total, usage in store.query(
            "SELECT s.harness, count(), countIf(e.usage_input IS NOT NULL OR e.usage_output IS NOT NULL) "
            f"FROM {store.table('events')} AS e INNER JOIN (SELECT session_key, harness FROM "
            f"{store.table('sessions')} FINAL) AS s ON e.session_key = s.session_key GROUP BY s.harness"
        )
    )
    touches = dict(store.query(f"SELECT harness, count() FROM {store.table('touches')} GROUP BY harness"))
    return [
        HarnessRow(
            harness=name,
            fixture_files=len(fixture_files(HARNESS_TESTS / name.replace("-", "_"))),
            sessions=counted[name],
            events=events.get(name, (0, 0))[0],
            touches=int(touches.get(name, 0)),
            titles=titled[name],
            resume_commands=resumable[name],
            usage=events.get(name, (0, 0))[1],
        )
        for name in harnesses()
    ]


def render_table(rows: list[HarnessRow]) -> str:
    """Return the rows as a Markdown table, then the count of harnesses and of those with non-zero rows."""
    lines = ["| " + " | ".join(_COLUMNS) + " |", "|" + "---|" * len(_COLUMNS)]
    for row in rows:
        values = (row.fixture_files, row.sessions, row.events, row.touches, row.titles, row.resume_commands)
        lines.append(f"| {row.harness} | " + " | ".join(str(v) for v in (*values, row.usage)) + " |")
    read = sum(row.read for row in rows)
    lines.append("")
    lines.append(
        f"harnesses: {len(rows)} registered, {read} with sessions and events read from their fixtures"
    )
    return "\n".join(lines)
