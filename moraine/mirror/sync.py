"""Copy routed sessions to their backends, redacted, after a per-backend, per-session watermark.

For each session routed to a backend, the watermark (generation, seq) in the local ``mirror_watermarks`` table says how
far it was copied. A pass first deletes the backend's rows of that session past the watermark (left by a pass that
died mid-copy), then copies the newer events, touches and postings, the session's turns and session row, and the
documents' statistics, in the store's publish order; the watermark moves last. So a backend that is down only
delays mirroring (local ingest never waits for it), and when it returns every routed event arrives exactly once.
A session whose trace was rewritten (a new generation) is copied again from the start.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from moraine.errors import ConfigError, StoreError
from moraine.attention.extract import TOUCH_COLUMNS
from moraine.ingest.batch import DOC_STATS_COLUMNS, SESSION_COLUMNS, TURN_COLUMNS
from moraine.store.versions import next_version
from moraine.ingest.rows import EVENT_COLUMNS
from moraine.mirror.remote import open_remote
from moraine.mirror.routing import Router
from moraine.mirror.settings import MirrorSettings
from moraine.redact import redact_text
from moraine.search.tokenize import tokenize
from moraine.store.client import Store

__all__ = ["BackendReport", "MirrorReport", "mirror_once"]

logger = logging.getLogger(__name__)

POSTING_COLUMNS = (
    "term", "session_key", "seq", "turn_seq", "tf", "doc_len", "type", "harness", "source", "timestamp",
    "stream_id", "source_offset",
)  # fmt: skip
_EVENT_REDACT = ("text", "summary", "arguments", "cwd", "provenance")
_TOUCH_REDACT = ("tail", "path", "worktree_root", "action_preview")
_TURN_REDACT = ("user_input_text", "final_text")
_SESSION_REDACT = ("title", "summary", "slug", "first_user_message", "cwd", "source_path")
_SEQ_TABLES = ("events", "touches", "postings")


@dataclass(slots=True)
class BackendReport:
    """What one pass did for one backend; ``error`` says why it stopped (the rest waits for the next pass)."""

    sessions: int = 0
    events: int = 0
    pending: int = 0
    error: str | None = None


@dataclass(slots=True)
class MirrorReport:
    backends: dict[str, BackendReport] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class _Session:
    key: int
    cwd: str | None
    generation: int
    last_seq: int
    stream_id: int


def _redacted(row: dict[str, Any], columns: Sequence[str]) -> None:
    for name in columns:
        value = row.get(name)
        if isinstance(value, str) and value:
            row[name] = redact_text(value)


def _select(
    store: Store, table: str, columns: Sequence[str], where: str, params: dict[str, Any]
) -> list[dict[str, Any]]:
    rows = store.query(f"SELECT {', '.join(columns)} FROM {store.table(table)} {where}", params)
    return [dict(zip(columns, row, strict=True)) for row in rows]


def _insert(remote: Store, table: str, rows: list[dict[str, Any]], columns: Sequence[str]) -> None:
    if rows:
        remote.insert(table, [[row[c] for c in columns] for row in rows], columns)


def _local_sessions(store: Store) -> list[_Session]:
    """Return every stored session (its events are seq 1..event_count, so no events scan is needed)."""
    rows = store.query(
        f"SELECT session_key, cwd, generation, stream_id, event_count FROM {store.table('sessions')} FINAL"
    )
    return [_Session(int(r[0]), r[1], int(r[2]), int(r[4]), int(r[3])) for r in rows]


def _watermarks(store: Store, backend: str) -> dict[int, tuple[int, int]]:
    rows = store.query(
        f"SELECT session_key, generation, seq FROM {store.table('mirror_watermarks')} FINAL "
        "WHERE backend = {backend:String}",
        {"backend": backend},
    )
    return {int(r[0]): (int(r[1]), int(r[2])) for r in rows}


def _copy_session(store: Store, remote: Store, session: _Session, start: int, restart: bool) -> int:
    """Copy one session's rows past ``start`` (everything when ``restart``); return the events copied."""
    key = {"key": session.key, "start": start}
    if restart:
        for table in (*_SEQ_TABLES, "turns", "sessions"):
            remote.command(f"DELETE FROM {remote.table(table)} WHERE session_key = {{key:UInt64}}", key)
    else:
        for table in _SEQ_TABLES:
            remote.command(
                f"DELETE FROM {remote.table(table)} WHERE session_key = {{key:UInt64}} AND seq > {{start:UInt32}}",
                key,
            )
    past = "WHERE session_key = {key:UInt64} AND seq > {start:UInt32}"
    events = _select(store, "events", EVENT_COLUMNS, past + " ORDER BY seq", key)
    changed: dict[int, set[str]] = {}
    for event in events:
        before = (event["text"], event["arguments"])
        _redacted(event, _EVENT_REDACT)
        if (event["text"], event["arguments"]) != before:
            changed[event["seq"]] = set(tokenize(f"{event['text']}\n{event['arguments'] or ''}"))
    _insert(remote, "events", events, EVENT_COLUMNS)
    touches = _select(store, "touches", TOUCH_COLUMNS, past, key)
    for touch in touches:
        _redacted(touch, _TOUCH_REDACT)
    _insert(remote, "touches", touches, TOUCH_COLUMNS)
    turns = _select(store, "turns", TURN_COLUMNS, "FINAL WHERE session_key = {key:UInt64}", key)
    for turn in turns:
        _redacted(turn, _TURN_REDACT)
    _insert(remote, "turns", turns, TURN_COLUMNS)
    sessions = _select(store, "sessions", SESSION_COLUMNS, "FINAL WHERE session_key = {key:UInt64}", key)
    for row in sessions:
        _redacted(row, _SESSION_REDACT)
    _insert(remote, "sessions", sessions, SESSION_COLUMNS)
    postings = [
        p
        for p in _select(store, "postings", POSTING_COLUMNS, past, key)
        if p["seq"] not in changed or p["term"] in changed[p["seq"]]  # no term of a redacted secret
    ]
    _insert(remote, "postings", postings, POSTING_COLUMNS)
    _copy_doc_stats(remote, session, events)
    return len(events)


def _copy_doc_stats(remote: Store, session: _Session, events: list[dict[str, Any]]) -> None:
    """Add the copied documents to the backend's corpus statistics (one row per type, keyed at the first offset)."""
    searchable = [e for e in events if e["doc_len"]]
    if not searchable:
        return
    offset = min(int(e["source_offset"]) for e in searchable)
    remote.command(
        f"DELETE FROM {remote.table('doc_stats')} WHERE stream_id = {{stream:UInt64}} "
        "AND source_offset >= {offset:UInt64}",
        {"stream": session.stream_id, "offset": offset},
    )
    by_type: dict[str, list[int]] = {}
    for event in searchable:
        stat = by_type.setdefault(event["type"], [0, 0])
        stat[0] += 1
        stat[1] += int(event["doc_len"])
    rows = [[session.stream_id, offset, kind, docs, total] for kind, (docs, total) in sorted(by_type.items())]
    remote.insert("doc_stats", rows, DOC_STATS_COLUMNS)


def _mirror_backend(
    store: Store, settings: MirrorSettings, name: str, routed: list[_Session]
) -> BackendReport:
    report = BackendReport()
    marks = _watermarks(store, name)
    todo = [s for s in routed if marks.get(s.key) != (s.generation, s.last_seq)]
    report.pending = len(todo)
    if not todo:
        return report
    try:
        remote = open_remote(settings.backends[name])
    except (StoreError, ConfigError) as exc:
        report.error = str(exc)
        return report
    try:
        for session in todo:
            generation, seq = marks.get(session.key, (session.generation, 0))
            restart = generation != session.generation or session.key not in marks
            copied = _copy_session(store, remote, session, 0 if restart else seq, restart)
            store.insert(
                "mirror_watermarks",
                [[name, session.key, session.generation, session.last_seq, next_version()]],
                ("backend", "session_key", "generation", "seq", "version"),
            )
            report.sessions += 1
            report.events += copied
            report.pending -= 1
    except StoreError as exc:
        report.error = str(exc)
    finally:
        remote.close()
    return report


def mirror_once(store: Store, settings: MirrorSettings, router: Router | None = None) -> MirrorReport:
    """Run one mirroring pass over every backend; a backend that fails is reported and retried next pass."""
    report = MirrorReport()
    if not settings.backends:
        return report
    route = router or Router(settings)
    by_backend: dict[str, list[_Session]] = {name: [] for name in settings.backends}
    for session in _local_sessions(store):
        name = route.backend_for(session.cwd)
        if name is not None:
            by_backend[name].append(session)
    for name, routed in by_backend.items():
        report.backends[name] = _mirror_backend(store, settings, name, routed)
        if report.backends[name].error:
            logger.warning("mirroring to %s is delayed: %s", name, report.backends[name].error)
    return report
