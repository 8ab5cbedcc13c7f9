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
from moraine.ingest.rows import EVENT_COLUMNS
from moraine.mirror.remote import open_remote
from moraine.mirror.routing import Router
from moraine.mirror.settings import MirrorSettings
from moraine.redact import redact_text
from moraine.terms.tokenize import tokenize
from moraine.store.client import Store
from moraine.store.mirror import (
    StoredSession,
    delete_doc_stats_from,
    delete_session,
    delete_session_past,
    local_sessions,
    latest_rows,
    record_watermark,
    rows_past,
    watermarks,
)

__all__ = ["BackendReport", "MirrorReport", "mirror_once"]

logger = logging.getLogger(__name__)

POSTING_COLUMNS = ("term", "session_key", "seq", "tf", "doc_len", "type", "timestamp")
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


def _redacted(row: dict[str, Any], columns: Sequence[str]) -> None:
    for name in columns:
        value = row.get(name)
        if isinstance(value, str) and value:
            row[name] = redact_text(value)


def _insert(remote: Store, table: str, rows: list[dict[str, Any]], columns: Sequence[str]) -> None:
    if rows:
        remote.insert(table, [[row[c] for c in columns] for row in rows], columns)


def _copy_session(store: Store, remote: Store, session: StoredSession, start: int, restart: bool) -> int:
    """Copy one session's rows past ``start`` (everything when ``restart``); return the events copied."""
    if restart:
        delete_session(remote, (*_SEQ_TABLES, "turns", "sessions"), session.key)
    else:
        delete_session_past(remote, _SEQ_TABLES, session.key, start)
    events = rows_past(store, "events", EVENT_COLUMNS, session.key, start, by_seq=True)
    changed: dict[int, set[str]] = {}
    for event in events:
        before = (event["text"], event["arguments"])
        _redacted(event, _EVENT_REDACT)
        if (event["text"], event["arguments"]) != before:
            changed[event["seq"]] = set(tokenize(f"{event['text']}\n{event['arguments'] or ''}"))
    _insert(remote, "events", events, EVENT_COLUMNS)
    touches = rows_past(store, "touches", TOUCH_COLUMNS, session.key, start)
    for touch in touches:
        _redacted(touch, _TOUCH_REDACT)
    _insert(remote, "touches", touches, TOUCH_COLUMNS)
    turns = latest_rows(store, "turns", TURN_COLUMNS, session.key)
    for turn in turns:
        _redacted(turn, _TURN_REDACT)
    _insert(remote, "turns", turns, TURN_COLUMNS)
    sessions = latest_rows(store, "sessions", SESSION_COLUMNS, session.key)
    for row in sessions:
        _redacted(row, _SESSION_REDACT)
    _insert(remote, "sessions", sessions, SESSION_COLUMNS)
    postings = [
        p
        for p in rows_past(store, "postings", POSTING_COLUMNS, session.key, start)
        if p["seq"] not in changed or p["term"] in changed[p["seq"]]  # no term of a redacted secret
    ]
    _insert(remote, "postings", postings, POSTING_COLUMNS)
    _copy_doc_stats(remote, session, events)
    return len(events)


def _copy_doc_stats(remote: Store, session: StoredSession, events: list[dict[str, Any]]) -> None:
    """Add the copied documents to the backend's corpus statistics (one row per type, keyed at the first offset)."""
    searchable = [e for e in events if e["doc_len"]]
    if not searchable:
        return
    offset = min(int(e["source_offset"]) for e in searchable)
    delete_doc_stats_from(remote, session.stream_id, offset)
    by_type: dict[str, list[int]] = {}
    for event in searchable:
        stat = by_type.setdefault(event["type"], [0, 0])
        stat[0] += 1
        stat[1] += int(event["doc_len"])
    rows = [[session.stream_id, offset, kind, docs, total] for kind, (docs, total) in sorted(by_type.items())]
    remote.insert("doc_stats", rows, DOC_STATS_COLUMNS)


def _mirror_backend(
    store: Store, settings: MirrorSettings, name: str, routed: list[StoredSession]
) -> BackendReport:
    report = BackendReport()
    marks = watermarks(store, name)
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
            record_watermark(store, name, session)
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
    by_backend: dict[str, list[StoredSession]] = {name: [] for name in settings.backends}
    for session in local_sessions(store):
        name = route.backend_for(session.cwd)
        if name is not None:
            by_backend[name].append(session)
    for name, routed in by_backend.items():
        report.backends[name] = _mirror_backend(store, settings, name, routed)
        if report.backends[name].error:
            logger.warning("mirroring to %s is delayed: %s", name, report.backends[name].error)
    return report
