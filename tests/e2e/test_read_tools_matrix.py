"""Every permutation-matrix row of search_sessions, list_sessions and open, through a real MCP client over stdio
against ``moraine mcp`` on a store filled by ``moraine ingest`` from the project's own Codex and Claude Code traces."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from fixtures.corpus.stdio import Call, Home, Reply, run_client
from fixtures.corpus.traces import UUIDS
from moraine.ids import event_id, session_id, session_key, turn_id

IDENT = session_key("codex", UUIDS["identifiers"])
TIES = session_key("codex", UUIDS["ties"])
BIG = session_key("codex", UUIDS["big"])
CLAUDE = session_key("claude", UUIDS["claude"])
DAY = {"start_datetime": "2026-04-29T00:00:00Z", "end_datetime": "2026-04-30T00:00:00Z"}
DEFAULT_TYPES = ["user_input", "assistant_response"]
S, L, OPEN = "search_sessions", "list_sessions", "open"

Check = Callable[[Reply, dict[str, Reply]], None]
Row = tuple[str, str, dict[str, Any], Check]


def ok(reply: Reply) -> Any:
    assert reply.is_error is False, reply.envelope.get("error")
    return reply.data


def error(code: str, field: str | None = None) -> Check:
    def check(reply: Reply, _: dict[str, Reply]) -> None:
        assert reply.is_error is True and reply.code == code, reply.envelope
        if field is not None:
            assert reply.field == field, reply.envelope["error"]

    return check


def hits(reply: Reply) -> list[dict[str, Any]]:
    data = ok(reply)
    assert data["result_count"] == len(data["results"]) <= data["limit"]
    return list(data["results"])


def _query_only(reply: Reply, _: dict[str, Reply]) -> None:
    found = hits(reply)
    assert (
        reply.envelope["request"]["event_types"] == DEFAULT_TYPES
        and reply.envelope["request"]["n_hits"] == 10
    )
    assert found[0]["session"]["id"] == session_id(IDENT) and "parseConfigFile" in found[0]["snippet"]["text"]
    assert {h["event"]["type"] for h in found} <= set(DEFAULT_TYPES)


def _n_hits(reply: Reply, _: dict[str, Reply]) -> None:
    found = hits(reply)
    assert len(found) == 2 and reply.data["limit"] == 2 and reply.data["truncated"] is True
    assert [h["rank"] for h in found] == [1, 2]


def _types(expected: set[str], minimum: int = 1) -> Check:
    def check(reply: Reply, _: dict[str, Reply]) -> None:
        found = hits(reply)
        assert len(found) >= minimum and {h["event"]["type"] for h in found} <= expected

    return check


def _in_session(key: int, types: set[str] | None = None) -> Check:
    def check(reply: Reply, _: dict[str, Reply]) -> None:
        found = hits(reply)
        assert found and {h["open"]["session_id"] for h in found} == {session_id(key)}
        assert {h["event"]["type"] for h in found} <= (types or set(DEFAULT_TYPES))

    return check


def _in_turn(key: int, turn: int, types: set[str] | None = None) -> Check:
    def check(reply: Reply, _: dict[str, Reply]) -> None:
        found = hits(reply)
        assert found and {h["open"]["turn_id"] for h in found} == {turn_id(key, turn)}
        assert {h["event"]["type"] for h in found} <= (types or set(DEFAULT_TYPES))

    return check


def _only(field: str, value: str, also: tuple[str, str] | None = None) -> Check:
    def check(reply: Reply, _: dict[str, Reply]) -> None:
        found = hits(reply)
        assert found and {h["session"][field] for h in found} == {value}
        if also:
            assert {h["session"][also[0]] for h in found} == {also[1]}

    return check


def _empty(reply: Reply, _: dict[str, Reply]) -> None:
    assert hits(reply) == [] and reply.data["truncated"] is False


def _once(kind: str) -> Check:
    def check(reply: Reply, _: dict[str, Reply]) -> None:
        assert [(h["event"]["type"], h["session"]["id"]) for h in hits(reply)] == [(kind, session_id(IDENT))]

    return check


SEARCH_ROWS: list[Row] = [
    ("query only", S, {"query": "parseConfigFile"}, _query_only),
    ("query + n_hits", S, {"query": "quokka tiebreak", "n_hits": 2}, _n_hits),
    (
        "query + event_types",
        S,
        {"query": "includeDirective", "event_types": ["tool_call"]},
        _types({"tool_call"}),
    ),
    (
        "query + within_id=session",
        S,
        {"query": "config parser", "within_id": session_id(IDENT)},
        _in_session(IDENT),
    ),
    (
        "query + within_id=turn",
        S,
        {"query": "parseConfigFile", "within_id": turn_id(IDENT, 1)},
        _in_turn(IDENT, 1),
    ),
    (
        "query + within_id=session + event_types",
        S,
        {"query": "pytest", "within_id": session_id(IDENT), "event_types": ["tool_call", "tool_response"]},
        _in_session(IDENT, {"tool_call", "tool_response"}),
    ),
    (
        "query + within_id=turn + event_types",
        S,
        {"query": "failed passed", "within_id": turn_id(IDENT, 3), "event_types": ["tool_response"]},
        _in_turn(IDENT, 3, {"tool_response"}),
    ),
    (
        "query + harness",
        S,
        {"query": "retry loop", "harness": "claude-code"},
        _only("harness", "claude-code"),
    ),
    ("query + source", S, {"query": "retry loop", "source": "claude"}, _only("source", "claude")),
    (
        "query + harness + source (both match)",
        S,
        {"query": "retry loop", "harness": "claude-code", "source": "claude"},
        _only("harness", "claude-code", ("source", "claude")),
    ),
    (
        "query + harness + source (ANDed)",
        S,
        {"query": "retry loop", "harness": "claude-code", "source": "codex"},
        _empty,
    ),  # fmt: skip
    ("blank harness", S, {"query": "retry", "harness": " "}, error("invalid_request", "harness")),
    ("blank source", S, {"query": "retry", "source": ""}, error("invalid_request", "source")),
    (
        "query + within_id=event",
        S,
        {"query": "retry", "within_id": event_id(IDENT, 1)},
        error("invalid_request", "within_id"),
    ),  # fmt: skip
    ("blank query", S, {"query": "  "}, error("invalid_request", "query")),
    ("query without searchable terms", S, {"query": "?! ..."}, error("invalid_request", "query")),
    (
        "unknown within_id session",
        S,
        {"query": "retry", "within_id": session_id(0xBADC0FFEE)},
        error("not_found"),
    ),
    ("unknown within_id turn", S, {"query": "retry", "within_id": turn_id(IDENT, 999)}, error("not_found")),
    (
        "malformed within_id",
        S,
        {"query": "retry", "within_id": "session:nope"},
        error("invalid_id", "within_id"),
    ),
    ("empty event_types", S, {"query": "retry", "event_types": []}, error("invalid_request", "event_types")),
    (
        "unsupported event_types",
        S,
        {"query": "retry", "event_types": ["debug"]},
        error("unsupported_event_type", "event_types"),
    ),  # fmt: skip
    ("n_hits < 1", S, {"query": "retry", "n_hits": 0}, error("invalid_request", "n_hits")),
    ("n_hits > 50", S, {"query": "retry", "n_hits": 51}, error("invalid_request", "n_hits")),
    ("non-integer n_hits", S, {"query": "retry", "n_hits": 1.5}, error("invalid_request", "n_hits")),
    ("mirrored assistant message appears once", S, {"query": "Gigabyte"}, _once("assistant_response")),
    ("mirrored user message appears once", S, {"query": "東京の天気"}, _once("user_input")),
    (
        "moraine's own tool calls are never hits",
        S,
        {"query": "coupon rounding", "event_types": ["tool_call"]},
        _empty,
    ),
    ("existing scope without matches", S, {"query": "quokka", "within_id": session_id(CLAUDE)}, _empty),
]


def sessions(reply: Reply) -> list[dict[str, Any]]:
    data = ok(reply)
    assert data["result_count"] == len(data["sessions"]) <= data["limit"]
    for row in data["sessions"]:
        assert row["open"] == {"session_id": row["id"]} and row["session"]["id"] == row["id"]
    return list(data["sessions"])


def _all_six(reply: Reply, _: dict[str, Reply]) -> None:
    rows = sessions(reply)
    assert len(rows) == 6 and reply.data["next_cursor"] is None and reply.data["truncated"] is False
    keys = [(r["session"]["updated_at"], r["id"]) for r in rows]
    assert keys == sorted(keys, reverse=True)


def _limit(reply: Reply, _: dict[str, Reply]) -> None:
    rows = sessions(reply)
    assert len(rows) == 2 and reply.data["truncated"] is True and reply.data["next_cursor"]


def _asc(reply: Reply, replies: dict[str, Reply]) -> None:
    assert [r["id"] for r in sessions(reply)] == [r["id"] for r in reversed(sessions(replies["range"]))]


def _listed(field: str, value: str, count: int) -> Check:
    def check(reply: Reply, _: dict[str, Reply]) -> None:
        rows = sessions(reply)
        assert len(rows) == count and {r["session"][field] for r in rows} <= {value}

    return check


LIST_ROWS: list[Row] = [
    ("range", L, DAY, _all_six),
    ("range + limit", L, {**DAY, "limit": 2}, _limit),
    ("range + mode", L, {**DAY, "mode": "tool_calling"}, _listed("mode", "tool_calling", 3)),
    ("range + sort=asc", L, {**DAY, "sort": "asc"}, _asc),
    ("range + harness", L, {**DAY, "harness": "claude-code"}, _listed("harness", "claude-code", 1)),
    ("range + source", L, {**DAY, "source": "codex"}, _listed("source", "codex", 5)),
    (
        "range + harness + source",
        L,
        {**DAY, "harness": "claude-code", "source": "codex"},
        _listed("source", "-", 0),
    ),
    ("list blank harness", L, {**DAY, "harness": "  "}, error("invalid_request", "harness")),
    ("list blank source", L, {**DAY, "source": ""}, error("invalid_request", "source")),
    (
        "missing datetime",
        L,
        {"start_datetime": DAY["start_datetime"]},
        error("invalid_request", "end_datetime"),
    ),
    (
        "datetime without timezone",
        L,
        {**DAY, "start_datetime": "2026-04-29T00:00:00"},
        error("invalid_request", "start_datetime"),
    ),  # fmt: skip
    (
        "end <= start",
        L,
        {**DAY, "end_datetime": DAY["start_datetime"]},
        error("invalid_request", "end_datetime"),
    ),
    ("list unknown field", L, {**DAY, "colour": "blue"}, error("invalid_request")),
    ("invalid mode", L, {**DAY, "mode": "gaming"}, error("invalid_request", "mode")),
    ("invalid sort", L, {**DAY, "sort": "sideways"}, error("invalid_request", "sort")),
    (
        "range outside the corpus",
        L,
        {"start_datetime": "2020-01-01T00:00:00+02:00", "end_datetime": "2020-01-02T00:00:00+02:00"},
        _listed("id", "-", 0),
    ),  # fmt: skip
]


def _session_summary_only(reply: Reply, _: dict[str, Reply]) -> None:
    data = ok(reply)
    assert data["kind"] == "session" and data["turns"] == [] and data["next_cursor"] is None
    assert data["session"]["turn_count"] == 300 and data["session"]["completed"] is True
    assert data["traversal"]["first_turn_id"] == turn_id(BIG, 1)
    assert data["traversal"]["last_turn_id"] == turn_id(BIG, 300)


def _session_page(reply: Reply, _: dict[str, Reply]) -> None:
    data = ok(reply)
    assert [t["ordinal"] for t in data["turns"]] == [1, 2, 3] and data["next_cursor"]
    assert all(t["completed"] and t["final_response"] for t in data["turns"])


def _turn_summary_only(reply: Reply, _: dict[str, Reply]) -> None:
    data = ok(reply)
    assert data["kind"] == "turn" and data["events"] == [] and data["next_cursor"] is None
    # Cut short (a tool call last) and idle for months: over, with no answer invented (issue 44, the 30-minute rule).
    assert data["turn"]["completed"] is True and data["summary"]["final_response"] is None
    assert data["summary"]["user_input"]["text"] == "Fix it and add a regression test."
    assert (
        data["session"]["title"] == "Retry loop investigation" and data["traversal"]["next_turn_id"] is None
    )


def _turn_page(reply: Reply, _: dict[str, Reply]) -> None:
    data = ok(reply)
    assert [e["ordinal"] for e in data["events"]] == [1, 2] and data["next_cursor"]


def _cursor_page(reply: Reply, replies: dict[str, Reply]) -> None:
    data = ok(reply)
    assert reply.envelope["request"] == {"cursor": replies["id=turn, limit=N"].data["next_cursor"]}
    assert [e["ordinal"] for e in data["events"]] == [3, 4]


def _event(reply: Reply, _: dict[str, Reply]) -> None:
    data = ok(reply)
    assert data["kind"] == "event" and data["content"]["truncated"] is False
    assert data["event"]["type"] == "user_input" and "fetchWithBackoff" in data["content"]["text"]
    assert data["traversal"]["previous_event_id"] is None and data["traversal"]["previous_turn_id"] is None


def _completed_turn(final: str) -> Check:
    def check(reply: Reply, _: dict[str, Reply]) -> None:
        data = ok(reply)
        assert data["turn"]["completed"] is True and data["turn"]["terminal_event_id"]
        assert data["summary"]["final_response"]["text"] == final

    return check


def _idle_cut_short_turn(reply: Reply, _: dict[str, Reply]) -> None:
    # A turn whose last event is a tool call, idle for months: over on that event, with no answer invented (issue 44).
    data = ok(reply)
    assert (
        data["turn"]["completed"] is True
        and data["turn"]["terminal_event_id"] == data["traversal"]["last_event_id"]
    )
    assert data["summary"]["final_response"] is None and data["summary"]["tools_called"] == ["exec_command"]


def _session_completion(expected: bool, title: str | None) -> Check:
    def check(reply: Reply, _: dict[str, Reply]) -> None:
        data = ok(reply)
        assert data["session"]["completed"] is expected and data["session"]["title"] == title

    return check


OPEN_ROWS: list[Row] = [
    (
        "codex finished turn",
        OPEN,
        {"id": turn_id(IDENT, 1)},
        _completed_turn(
            "parseConfigFile lives in src/config/parser.py; the loader imports parse_config_file instead."
        ),
    ),
    ("codex turn cut short, idle since", OPEN, {"id": turn_id(IDENT, 3)}, _idle_cut_short_turn),
    (
        "claude finished turn",
        OPEN,
        {"id": turn_id(CLAUDE, 1)},
        _completed_turn("The retry loop never increments attempt, so fetchWithBackoff spins forever."),
    ),
    (
        "claude session cut short, idle since",
        OPEN,
        {"id": session_id(CLAUDE)},
        _session_completion(True, "Retry loop investigation"),
    ),
    (
        "codex session cut short, idle since (no harness title: its first prompt)",
        OPEN,
        {"id": session_id(IDENT)},
        _session_completion(True, "Where is parseConfigFile defined? The loader cannot find it."),
    ),
    ("id=session", OPEN, {"id": session_id(BIG)}, _session_summary_only),
    ("id=session, limit=N", OPEN, {"id": session_id(BIG), "limit": 3}, _session_page),
    ("id=turn", OPEN, {"id": turn_id(CLAUDE, 2)}, _turn_summary_only),
    ("id=turn, limit=N", OPEN, {"id": turn_id(IDENT, 1), "limit": 2}, _turn_page),
    ("id=event", OPEN, {"id": event_id(CLAUDE, 1)}, _event),
    ("missing both id and cursor", OPEN, {}, error("invalid_request")),
    ("blank id", OPEN, {"id": "  "}, error("invalid_request", "id")),
    ("malformed id", OPEN, {"id": "turn:turn_zz"}, error("invalid_id", "id")),
    ("well-formed unknown session", OPEN, {"id": session_id(0xBADC0FFEE)}, error("not_found")),
    ("well-formed unknown turn", OPEN, {"id": turn_id(IDENT, 77)}, error("not_found")),
    ("well-formed unknown event", OPEN, {"id": event_id(IDENT, 9999)}, error("not_found")),
    (
        "pagination argument with id=event",
        OPEN,
        {"id": event_id(CLAUDE, 1), "limit": 2},
        error("invalid_request"),
    ),
    (
        "limit above the maximum",
        OPEN,
        {"id": session_id(BIG), "limit": 51},
        error("invalid_request", "limit"),
    ),
    ("garbage cursor", OPEN, {"cursor": "not-a-cursor"}, error("invalid_request", "cursor")),
]


async def _script(call: Call) -> dict[str, Reply]:
    replies: dict[str, Reply] = {}
    for name, tool, arguments, _ in [*SEARCH_ROWS, *LIST_ROWS, *OPEN_ROWS]:
        replies[name] = await call(tool, arguments)
    cursor = replies["id=turn, limit=N"].data["next_cursor"]
    replies["cursor=..."] = await call(OPEN, {"cursor": cursor})
    replies["id + cursor"] = await call(OPEN, {"id": turn_id(IDENT, 1), "cursor": cursor})
    replies["limit + cursor"] = await call(OPEN, {"limit": 2, "cursor": cursor})
    replies["wrong-kind cursor"] = await call(OPEN, {"cursor": replies["range + limit"].data["next_cursor"]})
    tampered = cursor[:-3] + ("AAA" if not cursor.endswith("AAA") else "BBB")
    replies["tampered cursor"] = await call(OPEN, {"cursor": tampered})
    list_cursor = replies["range + limit"].data["next_cursor"]
    pages = [replies["range + limit"]]
    while pages[-1].data["next_cursor"]:
        pages.append(await call(L, {**DAY, "limit": 2, "cursor": pages[-1].data["next_cursor"]}))
    replies["range + cursor"] = pages[1]
    replies["range + cursor (all pages)"] = Reply(
        False, {"data": [r for p in pages for r in p.data["sessions"]]}
    )
    replies["cursor with changed filter"] = await call(
        L, {**DAY, "limit": 2, "cursor": list_cursor, "sort": "asc"}
    )
    replies["cursor with changed range"] = await call(
        L, {**DAY, "start_datetime": "2026-04-28T00:00:00Z", "limit": 2, "cursor": list_cursor}
    )
    replies["open cursor given to list"] = await call(L, {**DAY, "cursor": cursor})
    return replies


def _reopen(reply: Reply, _: dict[str, Reply]) -> None:
    error("invalid_request", "cursor")(reply, _)
    assert "reopen" in reply.envelope["error"]["message"]


def _all_pages(reply: Reply, replies: dict[str, Reply]) -> None:
    listed = [row["id"] for row in reply.envelope["data"]]
    assert listed == [row["id"] for row in sessions(replies["range"])]


def _next_page(reply: Reply, replies: dict[str, Reply]) -> None:
    first = {r["id"] for r in sessions(replies["range + limit"])}
    assert len(sessions(reply)) == 2 and not first & {r["id"] for r in sessions(reply)}


DEPENDENT_ROWS: list[tuple[str, Check]] = [
    ("cursor=...", _cursor_page),
    ("id + cursor", error("invalid_request")),
    ("limit + cursor", error("invalid_request")),
    ("wrong-kind cursor", _reopen),
    ("tampered cursor", _reopen),
    ("range + cursor", _next_page),
    ("range + cursor (all pages)", _all_pages),
    ("cursor with changed filter", error("invalid_request", "cursor")),
    ("cursor with changed range", error("invalid_request", "cursor")),
    ("open cursor given to list", error("invalid_request", "cursor")),
]
ALL_ROWS = [(name, check) for name, _, _, check in [*SEARCH_ROWS, *LIST_ROWS, *OPEN_ROWS]] + DEPENDENT_ROWS


@pytest.fixture(scope="module")
def replies(corpus_home: Home) -> dict[str, Reply]:
    """Make every matrix call in one stdio session on the trace corpus (ingested with ``moraine ingest``)."""
    return run_client(corpus_home, _script)


@pytest.mark.parametrize(("name", "check"), ALL_ROWS, ids=[row[0] for row in ALL_ROWS])
def test_matrix_row_behaves_as_documented(replies: dict[str, Reply], name: str, check: Check) -> None:
    check(replies[name], replies)


def test_tie_ordering_is_timestamp_desc_then_event_id(replies: dict[str, Reply]) -> None:
    found = hits(replies["query + n_hits"])
    assert {h["session"]["id"] for h in found} == {session_id(TIES)}
