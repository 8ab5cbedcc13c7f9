"""A chunk: what a worker process hands the store-owning process for one stretch of a stream.

A chunk holds a ``Batch`` of finished rows (at most ``batch_size`` events, as an in-process batch), the stream's
position and saved state after it, and the session keys its records opened. The owning process merges chunks into
its own batch in stream order, so checkpoints and publishing work as they do without workers.

Keys: a worker cannot know which session ids other files, read at the same time by other workers, open first; it
gives every new session its usual key and the owning process, which sees the streams in order, re-keys the rows of a
session whose key another stream already holds (``rekey``), exactly as the in-process parser would have keyed them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from moraine.attention.extract import Touch
from moraine.ingest.batch import Batch
from moraine.ingest.parse import Tally

__all__ = ["Chunk", "rekey"]

_EVENT_KEY = 0  # session_key's position in an events row (EVENT_COLUMNS)
_POSTING_KEY = 2  # and in a postings row (POSTING_COLUMNS)


@dataclass(slots=True)
class Chunk:
    job: int
    batch: Batch = field(default_factory=Batch)
    offset: int = 0  # the stream's position after this chunk
    line_no: int = 0
    # The saved state at that position (redacted if asked).
    state: dict[str, Any] = field(default_factory=dict)
    tally: Tally = field(default_factory=Tally)
    claims: list[tuple[str, int]] = field(default_factory=list)  # (harness session id, key) opened, in order
    last: bool = False  # no more chunks for this job
    finished: bool = False  # the reader reached the end of the file
    failure: str | None = None  # the worker failed on this job (a bug, not a bad record): the pass must stop


def rekey(chunk: Chunk, renames: Mapping[int, int]) -> None:
    """Replace session keys in every row and state of ``chunk`` (``renames`` maps a worker's key to the final one)."""
    if not renames:
        return
    batch = chunk.batch
    batch.events = [_swap(row, _EVENT_KEY, renames) for row in batch.events]
    batch.postings = [_swap(row, _POSTING_KEY, renames) for row in batch.postings]
    batch.touches = [
        replace(t, session_key=renames[t.session_key])
        if isinstance(t, Touch) and t.session_key in renames
        else t
        for t in batch.touches
    ]
    batch.turns = {(renames.get(key, key), seq): turn for (key, seq), turn in batch.turns.items()}
    sessions = {}
    for key, (state, meta) in batch.sessions.items():
        state.key = renames.get(key, key)
        sessions[state.key] = (state, meta)
    batch.sessions = sessions
    chunk.tally.sessions = {renames.get(key, key) for key in chunk.tally.sessions}
    saved = chunk.state.get("sessions")
    if isinstance(saved, dict):
        for value in saved.values():
            if isinstance(value, dict) and value.get("key") in renames:
                value["key"] = renames[value["key"]]


def _swap(row: tuple[Any, ...], index: int, renames: Mapping[int, int]) -> tuple[Any, ...]:
    key = row[index]
    if key not in renames:
        return row
    return (*row[:index], renames[key], *row[index + 1 :])
