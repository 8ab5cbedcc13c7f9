"""The validation rows of the interface document's permutation matrices (and the issue's list) that need no data.

Each row: (case id, tool, arguments, expected error code, expected ``error.details.field`` or None).
"""

from __future__ import annotations

from typing import Any

from moraine.ids import event_id, session_id, turn_id

IR, INVALID_ID, UNSUPPORTED = "invalid_request", "invalid_id", "unsupported_event_type"
NOT_FOUND = "not_found"
S, L, OPEN, F = "search_sessions", "list_sessions", "open", "file_attention"
RANGE = {"start_datetime": "2026-04-30T09:00:00-04:00", "end_datetime": "2026-04-30T13:00:00-04:00"}
EVENT_ID = event_id(0x1234, 7)
UNKNOWN_SESSION = session_id(0xDEADBEEF)
UNKNOWN_TURN = turn_id(0xDEADBEEF, 3)

Row = tuple[str, str, dict[str, Any], str, str | None]

VALIDATION_ROWS: list[Row] = [
    # search_sessions
    ("search blank query", S, {"query": "   "}, IR, "query"),
    ("search missing query", S, {}, IR, "query"),
    ("search query over 4096 chars", S, {"query": "x" * 4097}, IR, "query"),
    ("search query not a string", S, {"query": 42}, IR, "query"),
    ("search n_hits below 1", S, {"query": "migration", "n_hits": 0}, IR, "n_hits"),
    ("search n_hits above 50", S, {"query": "migration", "n_hits": 51}, IR, "n_hits"),
    ("search n_hits 93.0 (an integer above 50)", S, {"query": "migration", "n_hits": 93.0}, IR, "n_hits"),
    ("search n_hits not an integer", S, {"query": "migration", "n_hits": 2.5}, IR, "n_hits"),
    ("search n_hits a string", S, {"query": "migration", "n_hits": "5"}, IR, "n_hits"),
    ("search n_hits a boolean", S, {"query": "migration", "n_hits": True}, IR, "n_hits"),
    ("search empty event_types", S, {"query": "migration", "event_types": []}, IR, "event_types"),
    (
        "search unsupported event type",
        S,
        {"query": "migration", "event_types": ["user_input", "debug_trace"]},
        UNSUPPORTED,
        "event_types",
    ),
    (
        "search unknown event type is not searchable",
        S,
        {"query": "m", "event_types": ["unknown"]},
        UNSUPPORTED,
        "event_types",
    ),
    ("search event_types not an array", S, {"query": "m", "event_types": "user_input"}, IR, "event_types"),
    ("search within_id is an event ID", S, {"query": "migration", "within_id": EVENT_ID}, IR, "within_id"),
    (
        "search malformed within_id",
        S,
        {"query": "migration", "within_id": "not-a-valid-id"},
        INVALID_ID,
        "within_id",
    ),
    ("search blank harness", S, {"query": "migration", "harness": "  "}, IR, "harness"),
    ("search empty source", S, {"query": "migration", "source": ""}, IR, "source"),
    ("search unknown field", S, {"query": "migration", "bogus": 1}, IR, "bogus"),
    # list_sessions
    ("list missing both datetimes", L, {}, IR, "start_datetime"),
    ("list missing end_datetime", L, {"start_datetime": RANGE["start_datetime"]}, IR, "end_datetime"),
    (
        "list datetime without timezone",
        L,
        {"start_datetime": "2026-04-30T09:00:00", "end_datetime": "2026-04-30T13:00:00Z"},
        IR,
        "start_datetime",
    ),
    (
        "list not a calendar datetime",
        L,
        {"start_datetime": "2026-13-45T09:00:00Z", "end_datetime": "2026-04-30T13:00:00Z"},
        IR,
        "start_datetime",
    ),
    (
        "list end before start",
        L,
        {"start_datetime": "2026-04-30T13:00:00Z", "end_datetime": "2026-04-30T09:00:00Z"},
        IR,
        "end_datetime",
    ),
    (
        "list end equals start in another offset",
        L,
        {"start_datetime": "2026-04-30T13:00:00Z", "end_datetime": "2026-04-30T09:00:00-04:00"},
        IR,
        "end_datetime",
    ),
    ("list bad mode", L, {**RANGE, "mode": "poetry"}, IR, "mode"),
    ("list bad sort", L, {**RANGE, "sort": "sideways"}, IR, "sort"),
    ("list unknown field", L, {**RANGE, "bogus": True}, IR, "bogus"),
    ("list blank harness", L, {**RANGE, "harness": " "}, IR, "harness"),
    ("list blank source", L, {**RANGE, "source": "\t"}, IR, "source"),
    ("list limit below 1", L, {**RANGE, "limit": 0}, IR, "limit"),
    ("list limit above the maximum", L, {**RANGE, "limit": 51}, IR, "limit"),
    # open
    ("open neither id nor cursor", OPEN, {}, IR, "id"),
    ("open blank id", OPEN, {"id": "   "}, IR, "id"),
    ("open malformed id", OPEN, {"id": "not-a-valid-id"}, INVALID_ID, "id"),
    ("open limit without id", OPEN, {"limit": 5}, IR, "limit"),
    ("open id with cursor", OPEN, {"id": UNKNOWN_SESSION, "cursor": "abc"}, IR, "cursor"),
    ("open limit with cursor", OPEN, {"limit": 5, "cursor": "abc"}, IR, "limit"),
    ("open limit with an event id", OPEN, {"id": EVENT_ID, "limit": 5}, IR, "limit"),
    ("open limit below 1", OPEN, {"id": UNKNOWN_SESSION, "limit": 0}, IR, "limit"),
    ("open limit above the maximum", OPEN, {"id": UNKNOWN_SESSION, "limit": 51}, IR, "limit"),
    ("open unknown field", OPEN, {"id": UNKNOWN_SESSION, "bogus": 1}, IR, "bogus"),
    # file_attention
    ("file_attention missing path", F, {}, IR, "path"),
    ("file_attention whitespace around path", F, {"path": " src/a.py "}, IR, "path"),
    ("file_attention file:// URI", F, {"path": "file:///home/u/src/a.py"}, IR, "path"),
    ("file_attention trailing slash", F, {"path": "src/"}, IR, "path"),
    ("file_attention path over 4096 chars", F, {"path": "src/" + "a" * 4093}, IR, "path"),
    ("file_attention bad scope", F, {"path": "src/a.py", "scope": "galaxy"}, IR, "scope"),
    ("file_attention bad granularity", F, {"path": "src/a.py", "granularity": "atoms"}, IR, "granularity"),
    (
        "file_attention sub-millisecond datetime",
        F,
        {"path": "src/a.py", "start_datetime": "2026-01-01T00:00:00.1234Z"},
        IR,
        "start_datetime",
    ),
    (
        "file_attention datetime without timezone",
        F,
        {"path": "src/a.py", "end_datetime": "2026-01-01T00:00:00"},
        IR,
        "end_datetime",
    ),
    (
        "file_attention end not after start",
        F,
        {
            "path": "src/a.py",
            "start_datetime": "2026-01-02T00:00:00Z",
            "end_datetime": "2026-01-01T00:00:00Z",
        },
        IR,
        "end_datetime",
    ),
    ("file_attention blank harness", F, {"path": "src/a.py", "harness": ""}, IR, "harness"),
    ("file_attention blank source", F, {"path": "src/a.py", "source": "  "}, IR, "source"),
    ("file_attention blank tool", F, {"path": "src/a.py", "tool": " "}, IR, "tool"),
    ("file_attention limit below 1", F, {"path": "src/a.py", "limit": 0}, IR, "limit"),
    ("file_attention unknown field", F, {"path": "src/a.py", "bogus": 1}, IR, "bogus"),
]

# Rows answered by the handlers on an empty store (no data needed, but the handler decides).
EMPTY_STORE_ROWS: list[Row] = [
    (
        "search within a well-formed unknown session",
        S,
        {"query": "migration", "within_id": UNKNOWN_SESSION},
        NOT_FOUND,
        None,
    ),
    (
        "search within a well-formed unknown turn",
        S,
        {"query": "migration", "within_id": UNKNOWN_TURN},
        NOT_FOUND,
        None,
    ),
    ("open well-formed unknown session", OPEN, {"id": UNKNOWN_SESSION}, NOT_FOUND, None),
    ("open well-formed unknown event", OPEN, {"id": EVENT_ID}, NOT_FOUND, None),
    ("open garbage cursor", OPEN, {"cursor": "%%%garbage%%%"}, IR, "cursor"),
    ("list garbage cursor", L, {**RANGE, "cursor": "%%%garbage%%%"}, IR, "cursor"),
]
