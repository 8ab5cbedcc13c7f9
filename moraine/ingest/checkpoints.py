"""Stream checkpoints: where each trace file was read up to, with the adapter's and the sessions' saved state.

A checkpoint row is written last in every published batch. Before a batch is published, each stream in it gets an
``in_flight`` copy of its last committed checkpoint: finding one on start means a publish was interrupted, and the
stream's rows at or after the committed offset must be deleted before it resumes (so every event lands once), or,
when its file has vanished meanwhile, rolled back for good (``moraine.ingest.rollback``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from moraine.store.checkpoints import checkpoint_rows
from moraine.store.client import Store
from moraine.store.versions import next_version

__all__ = ["CHECKPOINT_COLUMNS", "Checkpoint", "load_checkpoints"]

CHECKPOINT_COLUMNS = (
    "stream_id",
    "source",
    "path",
    "file_identity",
    "offset",
    "line_no",
    "state",
    "generation",
    "revision",
    "updated_at",
    "version",
)


@dataclass(slots=True)
class Checkpoint:
    stream_id: int
    source: str
    path: str
    file_identity: str = ""
    offset: int = 0
    line_no: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    generation: int = 0
    revision: int = 1  # the harness's revision (``Harness.revision``) the stream's rows were read under

    @property
    def in_flight(self) -> bool:
        return bool(self.state.get("in_flight"))

    def session_keys(self) -> list[int]:
        """The keys of the sessions the stream had opened."""
        return [s["key"] for s in self.saved_sessions().values() if isinstance(s.get("key"), int)]

    def saved_sessions(self) -> dict[str, dict[str, Any]]:
        """Return the sessions' saved states (harness session id -> ``SessionState.to_json()``)."""
        sessions = self.state.get("sessions")
        if not isinstance(sessions, dict):
            return {}
        return {k: v for k, v in sessions.items() if isinstance(k, str) and isinstance(v, dict)}

    def committed(self) -> Checkpoint:
        """Return this checkpoint without its in-flight marker."""
        state = {k: v for k, v in self.state.items() if k != "in_flight"}
        return replace(self, state=state)

    def row(self, in_flight: bool = False) -> list[Any]:
        """Return the checkpoints row (``in_flight`` marks a publish about to start)."""
        state = dict(self.state, in_flight=True) if in_flight else self.state
        return [
            self.stream_id,
            self.source,
            self.path,
            self.file_identity,
            self.offset,
            self.line_no,
            json.dumps(state, ensure_ascii=False, separators=(",", ":")),
            self.generation,
            self.revision,
            datetime.now(UTC),
            next_version(),
        ]


def load_checkpoints(store: Store, source: str) -> dict[int, Checkpoint]:
    """Return the latest checkpoint of every stream of ``source``."""
    rows = checkpoint_rows(store, source)
    found: dict[int, Checkpoint] = {}
    for stream, src, path, identity, offset, line_no, state, generation, revision in rows:
        try:
            parsed = json.loads(state) if state else {}
        except ValueError:
            parsed = {}
        found[int(stream)] = Checkpoint(
            int(stream),
            src,
            path,
            identity,
            int(offset),
            int(line_no),
            parsed if isinstance(parsed, dict) else {},
            int(generation),
            int(revision),
        )
    return found
