"""One publish unit: the rows of a few thousand events, written in reader-safe order, checkpoints last.

Publish order: in-flight checkpoint markers, events, touches, turns, sessions, postings, doc_stats, then the
checkpoints. Postings come after events, turns and sessions, so a search never finds a posting whose rows are
missing; the checkpoint comes last, so a crash before it only leaves rows that the next start deletes.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from moraine.attention.extract import TOUCH_COLUMNS
from moraine.ids import session_key
from moraine.ingest.checkpoints import CHECKPOINT_COLUMNS, Checkpoint
from moraine.ingest.rows import EVENT_COLUMNS, clean
from moraine.ingest.sessions import SessionState, TurnState
from moraine.projects.projects import session_project
from moraine.store.client import Store
from moraine.store.versions import next_version

__all__ = ["DIE_AFTER_INSERTS_ENV", "Batch", "SessionMeta"]

# Test hook: kill this process with SIGKILL after that many table inserts (simulates a crash mid-publish).
DIE_AFTER_INSERTS_ENV = "MORAINE_TEST_DIE_AFTER_INSERTS"

# Postings are written one row per event into the Null table postings_in; its materialized view expands them
# into one postings row per term inside ClickHouse (migrations 005 and 016).
POSTING_COLUMNS = ("terms", "tfs", "session_key", "seq", "doc_len", "type", "timestamp")
TURN_COLUMNS = (
    "session_key",
    "turn_seq",
    "first_seq",
    "last_seq",
    "event_count",
    "completed",
    "terminal_seq",
    "started_at",
    "updated_at",
    "user_input_seq",
    "user_input_text",
    "user_input_truncated",
    "final_seq",
    "final_text",
    "final_truncated",
    "tools_called",
    "event_types",
    "version",
)
SESSION_COLUMNS = (
    "session_key",
    "harness_session_id",
    "source",
    "harness",
    "title",
    "summary",
    "slug",
    "first_user_message",
    "cwd",
    "model",
    "project_id",
    "parent_session_key",
    "started_at",
    "updated_at",
    "completed",
    "answered",
    "turn_count",
    "event_count",
    "mode",
    "generation",
    "stream_id",
    "source_path",
    "version",
)
ERROR_COLUMNS = ("at", "source", "path", "line_no", "offset", "reason", "detail")
DOC_STATS_COLUMNS = ("stream_id", "source_offset", "type", "docs", "total_len")
_inserts_done = 0
# Memory bounds of one batch besides its event count (a posting costs one term string and one int here).
MAX_POSTINGS_ROWS = 1_000_000
MAX_TEXT_CHARS = 16 * 1024 * 1024
_TEXT = EVENT_COLUMNS.index("text")
_ARGUMENTS = EVENT_COLUMNS.index("arguments")


def _ms_to_dt(value: int | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value / 1000, UTC)


@dataclass(frozen=True, slots=True)
class SessionMeta:
    """What a session row needs besides its state: where it comes from."""

    source: str
    harness: str
    stream_id: int
    source_path: str
    generation: int


class Batch:
    """Rows waiting to be published, column by column."""

    def __init__(self) -> None:
        # Rows are kept as tuples and turned into columns once, at publish time (one C-level transpose instead of
        # an append per column per event).
        self.events: list[tuple[Any, ...]] = []
        self.postings: list[tuple[Any, ...]] = []
        self.posting_count = 0  # postings rows the events of this batch expand to
        self.touches: list[Mapping[str, Any]] = []
        self.errors: list[list[Any]] = []
        self.turns: dict[tuple[int, int], TurnState] = {}
        self.sessions: dict[int, tuple[SessionState, SessionMeta]] = {}
        self.doc_stats: dict[
            tuple[int, str], list[int]
        ] = {}  # (stream, type) -> [min offset, docs, total_len]
        self.event_count = 0
        self.text_chars = 0  # text and arguments held, to bound memory on huge records
        self._frozen: tuple[list[list[Any]], list[list[Any]]] | None = None  # turn and session rows

    def full(self, max_events: int) -> bool:
        """Return whether the batch should be published now (events, postings rows or held text at a limit)."""
        return (
            self.event_count >= max_events
            or self.posting_count >= MAX_POSTINGS_ROWS
            or self.text_chars >= MAX_TEXT_CHARS
        )

    def add_event(self, values: tuple[Any, ...]) -> None:
        """Append one events row (values in ``EVENT_COLUMNS`` order)."""
        self.events.append(values)
        self.event_count += 1
        self.text_chars += len(values[_TEXT]) + len(values[_ARGUMENTS] or "")

    def add_postings(
        self,
        terms: Mapping[str, int],
        doc_len: int,
        fixed: tuple[int, int, str, int | None],
        stream_id: int,
        offset: int,
    ) -> None:
        """Append the postings of one event (one postings_in row); ``fixed`` = (session_key, seq, type, timestamp),
        the values every posting of this event shares; its stream and offset count it in the document statistics."""
        session_key, seq, type_, timestamp = fixed
        self.postings.append(
            ("\n".join(terms.keys()), list(terms.values()), session_key, seq, doc_len, type_, timestamp)
        )
        self.posting_count += len(terms)
        key = (stream_id, type_)
        stat = self.doc_stats.get(key)
        if stat is None:
            self.doc_stats[key] = [offset, 1, doc_len]
        else:
            stat[0] = min(stat[0], offset)
            stat[1] += 1
            stat[2] += doc_len

    def add_error(self, source: str, path: str, line_no: int, offset: int, reason: str, detail: str) -> None:
        """Append one ingest_errors row."""
        self.errors.append([datetime.now(UTC), source, path, line_no, offset, reason, clean(detail[:2000])])

    def touch_session(self, state: SessionState, meta: SessionMeta) -> None:
        """Mark a session (and its current turn) as changed in this batch."""
        self.sessions[state.key] = (state, meta)
        if state.turn is not None:
            self.turns[(state.key, state.turn.turn_seq)] = state.turn

    def keep_turn(self, key: int, turn: TurnState) -> None:
        """Keep a turn that just closed, so its final row is published."""
        self.turns[(key, turn.turn_seq)] = turn

    def merge(self, other: Batch) -> None:
        """Add the rows of ``other``, a later stretch (its session and turn states are the newer ones)."""
        self.events.extend(other.events)
        self.postings.extend(other.postings)
        self.posting_count += other.posting_count
        self.touches.extend(other.touches)
        self.errors.extend(other.errors)
        self.turns.update(other.turns)
        self.sessions.update(other.sessions)
        for key, (offset, docs, total) in other.doc_stats.items():
            stat = self.doc_stats.get(key)
            if stat is None:
                self.doc_stats[key] = [offset, docs, total]
            else:
                stat[0] = min(stat[0], offset)
                stat[1] += docs
                stat[2] += total
        self.event_count += other.event_count
        self.text_chars += other.text_chars

    def drop_sessions(self, keys: Collection[int]) -> None:
        """Drop every row of the sessions ``keys`` (forgotten on purpose: ``moraine forget``)."""
        if not keys:
            return
        self.events = [row for row in self.events if row[0] not in keys]  # session_key leads EVENT_COLUMNS
        self.event_count = len(self.events)
        self.postings = [row for row in self.postings if row[2] not in keys]  # after terms and tfs
        self.touches = [touch for touch in self.touches if touch.get("session_key") not in keys]
        self.turns = {k: turn for k, turn in self.turns.items() if k[0] not in keys}
        self.sessions = {key: value for key, value in self.sessions.items() if key not in keys}

    def freeze(self) -> None:
        """Build the turn and session rows now: the states keep changing while this batch is being written."""
        self._frozen = self._state_rows()

    def _state_rows(self) -> tuple[list[list[Any]], list[list[Any]]]:
        turn_rows = [self._turn_row(key, turn) for (key, _), turn in self.turns.items()]
        session_rows = [
            self._session_row(state, meta) for state, meta in self.sessions.values() if state.event_count > 0
        ]
        return turn_rows, session_rows

    def publish(self, store: Store, checkpoints: list[Checkpoint], committed: list[Checkpoint]) -> None:
        """Write everything in reader-safe order; ``committed`` get in-flight markers first, ``checkpoints`` last.

        Turn and session rows are the ones of ``freeze`` (called here when it was not called before)."""
        turn_rows, session_rows = self._frozen or self._state_rows()
        if committed:
            _insert_rows(store, "checkpoints", [c.row(in_flight=True) for c in committed], CHECKPOINT_COLUMNS)
        _insert_columns(store, "events", _columns(self.events, EVENT_COLUMNS), EVENT_COLUMNS)
        if self.touches:
            _insert_rows(
                store, "touches", [[t.get(c) for c in TOUCH_COLUMNS] for t in self.touches], TOUCH_COLUMNS
            )
        _insert_rows(store, "turns", turn_rows, TURN_COLUMNS)
        _insert_rows(store, "sessions", session_rows, SESSION_COLUMNS)
        _insert_columns(store, "postings_in", _columns(self.postings, POSTING_COLUMNS), POSTING_COLUMNS)
        stats = [
            [stream, offset, type_, docs, total]
            for (stream, type_), (offset, docs, total) in self.doc_stats.items()
        ]
        _insert_rows(store, "doc_stats", stats, DOC_STATS_COLUMNS)
        _insert_rows(store, "ingest_errors", self.errors, ERROR_COLUMNS)
        _insert_rows(store, "checkpoints", [c.row() for c in checkpoints], CHECKPOINT_COLUMNS)

    @staticmethod
    def _turn_row(key: int, turn: TurnState) -> list[Any]:
        return [
            key,
            turn.turn_seq,
            turn.first_seq,
            turn.last_seq,
            turn.event_count,
            int(turn.completed),
            turn.terminal_seq,
            _ms_to_dt(turn.started_at),
            _ms_to_dt(turn.updated_at),
            turn.user_input_seq,
            turn.user_input_text,
            int(turn.user_input_truncated),
            turn.final_seq,
            turn.final_text,
            int(turn.final_truncated),
            list(turn.tools_called),
            list(turn.event_types),
            next_version(),
        ]

    @staticmethod
    def _session_row(state: SessionState, meta: SessionMeta) -> list[Any]:
        return [
            state.key,
            clean(state.harness_session_id),
            meta.source,
            meta.harness,
            state.title,
            state.summary,
            state.slug,
            state.first_user_message,
            state.cwd,
            state.model,
            session_project(state.cwd),
            session_key(meta.source, state.parent_session) if state.parent_session else None,
            _ms_to_dt(state.started_at),
            _ms_to_dt(state.updated_at),
            int(state.completed),
            int(state.answered),
            state.turn_count,
            state.event_count,
            state.mode.value,
            meta.generation,
            meta.stream_id,
            meta.source_path,
            next_version(),
        ]


def _after_insert() -> None:
    global _inserts_done
    _inserts_done += 1
    limit = os.environ.get(DIE_AFTER_INSERTS_ENV)
    if limit and _inserts_done >= int(limit):
        os.kill(os.getpid(), signal.SIGKILL)


def _columns(rows: list[tuple[Any, ...]], names: tuple[str, ...]) -> list[list[Any]]:
    """Return ``rows`` as one list per column (every row must have one value per name)."""
    if any(len(row) != len(names) for row in rows):
        raise ValueError(f"a row does not have the {len(names)} columns {names[0]}..{names[-1]}")
    return [list(column) for column in zip(*rows, strict=True)] if rows else [[] for _ in names]


def _insert_columns(store: Store, table: str, columns: list[list[Any]], names: tuple[str, ...]) -> None:
    if columns and columns[0]:
        store.insert_columns(table, columns, names)
        _after_insert()


def _insert_rows(store: Store, table: str, rows: list[list[Any]], names: tuple[str, ...]) -> None:
    if rows:
        store.insert(table, rows, names)
        _after_insert()
