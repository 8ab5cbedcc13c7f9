"""The interface document's input permutation matrix, one row per combination, for all four tools."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tools.conformance.discover import WIDE_RANGE, Corpus
from tools.conformance.probe import Answer, Probe
from tools.conformance.report import Report

__all__ = ["run_matrix"]

DEFAULT_TYPES = ["user_input", "assistant_response"]
TOOL_TYPES = ["tool_call", "tool_response"]
MALFORMED = "not-a-valid-id"


def expect_error(
    report: Report, section: str, name: str, answer: Answer, code: str, field: str | None
) -> None:
    """Record whether ``answer`` is the error ``code`` naming ``field`` (when given)."""
    passed = not answer.problems and answer.code == code and (field is None or answer.field == field)
    want = f"want {code}" + (f" field={field}" if field else "")
    report.add(section, name, passed, f"{want}; got {answer.describe()}")


def expect_ok(
    report: Report, section: str, name: str, answer: Answer, check: Callable[[dict[str, Any]], str | None]
) -> None:
    """Record whether ``answer`` succeeded and ``check(envelope)`` found nothing wrong (it returns a complaint)."""
    if not answer.ok:
        report.add(section, name, False, f"want success; got {answer.describe()}")
        return
    complaint = check(answer.envelope)
    report.add(section, name, complaint is None, complaint or answer.describe())


def _hits(envelope: dict[str, Any]) -> list[dict[str, Any]]:
    return list(envelope["data"]["results"])


def _all(items: list[dict[str, Any]], test: Callable[[dict[str, Any]], bool], what: str) -> str | None:
    bad = [item for item in items if not test(item)]
    return f"{len(bad)} of {len(items)} rows break: {what}" if bad else None


async def search_rows(probe: Probe, report: Report, c: Corpus) -> None:
    """search_sessions rows."""
    s, q = "search_sessions", c.query
    harness, source = c.session["harness"], c.session["source"]

    def scoped(key: str, value: str, types: list[str]) -> Callable[[dict[str, Any]], str | None]:
        return lambda env: _all(
            _hits(env),
            lambda h: h["open"][key] == value and h["event"]["type"] in types,
            f"{key}={value}, {types}",
        )

    a = await probe.call(s, {"query": f"  {q}  "})
    expect_ok(report, s, "query only", a, lambda env: None if (
        env["request"]["query"] == q and env["request"]["event_types"] == DEFAULT_TYPES
        and env["request"]["n_hits"] == 10 and env["data"]["limit"] == 10 and _hits(env)
    ) else f"canonical request {env['request']} or no hits")  # fmt: skip
    a = await probe.call(s, {"query": q, "n_hits": 1})
    expect_ok(report, s, "query + n_hits", a, lambda env: None if (
        env["data"]["limit"] == 1 and env["data"]["result_count"] == len(_hits(env)) <= 1
    ) else "n_hits not honoured")  # fmt: skip
    types = ["user_input", *TOOL_TYPES]
    a = await probe.call(s, {"query": q, "event_types": list(reversed(types))})
    expect_ok(report, s, "query + event_types", a, lambda env: _all(
        _hits(env), lambda h: h["event"]["type"] in types, f"type in {types}"
    ) or (None if env["request"]["event_types"] == types else f"event_types not canonical: {env['request']}"))  # fmt: skip
    a = await probe.call(s, {"query": q, "within_id": c.session_id})
    expect_ok(report, s, "query + within_id=session", a, scoped("session_id", c.session_id, DEFAULT_TYPES))
    a = await probe.call(s, {"query": q, "within_id": c.turn_id})
    expect_ok(report, s, "query + within_id=turn", a, scoped("turn_id", c.turn_id, DEFAULT_TYPES))
    every = [*DEFAULT_TYPES, "reasoning", *TOOL_TYPES]
    a = await probe.call(s, {"query": q, "within_id": c.session_id, "event_types": every})
    expect_ok(
        report, s, "query + within_id=session + event_types", a, scoped("session_id", c.session_id, every)
    )
    a = await probe.call(s, {"query": q, "within_id": c.turn_id, "event_types": TOOL_TYPES})
    expect_ok(report, s, "query + within_id=turn + event_types", a, scoped("turn_id", c.turn_id, TOOL_TYPES))
    a = await probe.call(s, {"query": q, "harness": harness})
    expect_ok(report, s, "query + harness", a, lambda env: _all(
        _hits(env), lambda h: h["session"].get("harness") == harness, f"harness={harness}") or (
        None if _hits(env) else "no hits for the session's own harness"))  # fmt: skip
    a = await probe.call(s, {"query": q, "source": source})
    expect_ok(report, s, "query + source", a, lambda env: _all(
        _hits(env), lambda h: h["session"].get("source") == source, f"source={source}") or (
        None if _hits(env) else "no hits for the session's own source"))  # fmt: skip
    a = await probe.call(s, {"query": q, "harness": harness, "source": source})
    expect_ok(report, s, "query + harness + source", a, lambda env: _all(
        _hits(env), lambda h: (h["session"].get("harness"), h["session"].get("source")) == (harness, source),
        "both filters"))  # fmt: skip
    a = await probe.call(s, {"query": q, "harness": harness, "source": source + "\u0000no-such-source"})
    expect_ok(report, s, "query + harness + non-matching source", a, lambda env: (
        None if not _hits(env) else "filters were not ANDed"))  # fmt: skip
    rows: list[tuple[str, dict[str, Any], str, str | None]] = [
        ("blank harness", {"query": q, "harness": "   "}, "invalid_request", "harness"),
        ("blank source", {"query": q, "source": ""}, "invalid_request", "source"),
        ("query + within_id=event", {"query": q, "within_id": c.event_id}, "invalid_request", "within_id"),
        ("blank query", {"query": "   "}, "invalid_request", "query"),
        ("unknown within_id", {"query": q, "within_id": c.unknown_ids["session"]}, "not_found", None),
        ("malformed within_id", {"query": q, "within_id": MALFORMED}, "invalid_id", "within_id"),
        ("empty event_types", {"query": q, "event_types": []}, "invalid_request", "event_types"),
        ("unsupported event_types value", {"query": q, "event_types": ["debug_trace"]}, "unsupported_event_type",
         "event_types"),
        ("n_hits < 1", {"query": q, "n_hits": 0}, "invalid_request", "n_hits"),
        ("n_hits > 50", {"query": q, "n_hits": 51}, "invalid_request", "n_hits"),
        ("non-integer n_hits", {"query": q, "n_hits": 2.5}, "invalid_request", "n_hits"),
    ]  # fmt: skip
    for name, args, code, field in rows:
        expect_error(report, s, name, await probe.call(s, args), code, field)


def _sessions(envelope: dict[str, Any]) -> list[dict[str, Any]]:
    return list(envelope["data"]["sessions"])


async def list_rows(probe: Probe, report: Report, c: Corpus) -> None:
    """list_sessions rows."""
    s, r = "list_sessions", WIDE_RANGE
    harness, source, mode = c.session["harness"], c.session["source"], c.session.get("mode")
    a = await probe.call(s, dict(r))
    expect_ok(
        report, s, "start_datetime + end_datetime", a, lambda env: None if _sessions(env) else "no sessions"
    )
    first = await probe.call(s, {**r, "limit": 1})
    expect_ok(
        report, s, "range + limit", first, lambda env: None if len(_sessions(env)) == 1 else "limit ignored"
    )
    cursor = first.data.get("next_cursor")
    if cursor:
        a = await probe.call(s, {**r, "limit": 1, "cursor": cursor})
        expect_ok(report, s, "range + cursor", a, lambda env: None if (
            len(_sessions(env)) == 1 and _sessions(env)[0]["id"] != _sessions(first.envelope)[0]["id"]
        ) else "the next page repeats or is empty")  # fmt: skip
        a = await probe.call(s, {**r, "limit": 1, "cursor": cursor, "sort": "asc"})
        expect_error(report, s, "cursor with changed filter or sort", a, "invalid_request", None)
    else:
        report.add(
            s, "range + cursor", False, "limit=1 over the whole corpus gave no next_cursor (one session?)"
        )
    if mode:
        a = await probe.call(s, {**r, "mode": mode})
        expect_ok(report, s, "range + mode", a, lambda env: _all(
            _sessions(env), lambda row: row["session"].get("mode") == mode, f"mode={mode}"))  # fmt: skip
    a = await probe.call(s, {**r, "sort": "asc"})
    expect_ok(report, s, "range + sort=asc", a, lambda env: None if [
        (x["session"]["updated_at"], x["id"]) for x in _sessions(env)
    ] == sorted((x["session"]["updated_at"], x["id"]) for x in _sessions(env)) else "not ascending")  # fmt: skip
    for name, extra in [
        ("range + harness", {"harness": harness}),
        ("range + source", {"source": source}),
        ("range + harness + source", {"harness": harness, "source": source}),
    ]:
        a = await probe.call(s, {**r, **extra})
        expect_ok(report, s, name, a, _listed_match(extra))
    for name, args, field in [
        ("blank harness", {**r, "harness": " "}, "harness"),
        ("blank source", {**r, "source": "\t"}, "source"),
        ("missing datetime", {"start_datetime": r["start_datetime"]}, "end_datetime"),
        ("datetime without timezone", {**r, "start_datetime": "2026-04-30T09:00:00"}, "start_datetime"),
        ("end_datetime <= start_datetime", {"start_datetime": r["end_datetime"], "end_datetime": r["end_datetime"]},
         None),
        ("unknown field", {**r, "query": "x"}, None),
        ("invalid mode", {**r, "mode": "gaming"}, "mode"),
        ("invalid sort", {**r, "sort": "sideways"}, "sort"),
    ]:  # fmt: skip
        expect_error(report, s, name, await probe.call(s, args), "invalid_request", field)


def _listed_match(expected: dict[str, str]) -> Callable[[dict[str, Any]], str | None]:
    """Return a check that every listed session has the ``expected`` harness/source (and some were listed)."""

    def check(envelope: dict[str, Any]) -> str | None:
        rows = _sessions(envelope)
        matches = _all(
            rows, lambda row: all(row["session"].get(k) == v for k, v in expected.items()), str(expected)
        )
        return matches or (None if rows else "the session's own values matched nothing")

    return check


async def attention_rows(probe: Probe, report: Report, c: Corpus, path: str) -> None:
    """file_attention rows (filters must hold on every returned row; blank filters are rejected)."""
    s = "file_attention"
    harness, source = c.session["harness"], c.session["source"]
    base = {"path": path, "scope": "all", "granularity": "events"}

    def rows_match(expected: dict[str, str]) -> Callable[[dict[str, Any]], str | None]:
        return lambda env: _all(
            list(env["data"].get("events", [])),
            lambda row: all(row["event"].get(k) == v for k, v in expected.items()),
            str(expected),
        )

    for name, extra in [
        ("path + harness", {"harness": harness}),
        ("path + source", {"source": source}),
        ("path + harness + source", {"harness": harness, "source": source}),
    ]:
        expect_ok(report, s, name, await probe.call(s, {**base, **extra}), rows_match(extra))
    expect_error(
        report, s, "blank harness", await probe.call(s, {**base, "harness": ""}), "invalid_request", "harness"
    )
    expect_error(
        report, s, "blank source", await probe.call(s, {**base, "source": "  "}), "invalid_request", "source"
    )


async def open_rows(probe: Probe, report: Report, c: Corpus) -> None:
    """open rows."""
    s = "open"
    a = await probe.call(s, {"id": c.session_id})
    expect_ok(report, s, "id=session", a, lambda env: None if (
        env["data"]["kind"] == "session" and env["data"]["turns"] == [] and env["data"]["next_cursor"] is None
    ) else "not a summary-only session")  # fmt: skip
    page = await probe.call(s, {"id": c.session_id, "limit": 1})
    expect_ok(report, s, "id=session, limit=N", page, lambda env: None if (
        len(env["data"]["turns"]) == 1 and (env["data"]["next_cursor"] is None) == (c.turn_count == 1)
    ) else "page size or next_cursor wrong")  # fmt: skip
    a = await probe.call(s, {"id": c.turn_id})
    expect_ok(report, s, "id=turn", a, lambda env: None if (
        env["data"]["kind"] == "turn" and env["data"]["events"] == [] and env["data"]["next_cursor"] is None
    ) else "not a summary-only turn")  # fmt: skip
    turn_page = await probe.call(s, {"id": c.turn_id, "limit": 1})
    expect_ok(report, s, "id=turn, limit=N", turn_page, lambda env: None if (
        len(env["data"]["events"]) == 1 and env["data"]["next_cursor"]
    ) else "page size or next_cursor wrong")  # fmt: skip
    cursor = turn_page.data.get("next_cursor")
    if cursor:
        a = await probe.call(s, {"cursor": cursor})
        expect_ok(report, s, "cursor=...", a, lambda env: None if (
            len(env["data"]["events"]) == 1
            and env["data"]["events"][0]["id"] != turn_page.data["events"][0]["id"]
        ) else "the continuation repeats the first page or ignores its limit")  # fmt: skip
        expect_error(report, s, "id combined with cursor", await probe.call(s, {"id": c.turn_id, "cursor": cursor}),
                     "invalid_request", None)  # fmt: skip
        expect_error(report, s, "limit combined with cursor", await probe.call(s, {"limit": 1, "cursor": cursor}),
                     "invalid_request", None)  # fmt: skip
        stale = cursor[:-2] + ("AA" if cursor[-2:] != "AA" else "BB")
        expect_error(report, s, "stale or wrong-kind cursor", await probe.call(s, {"cursor": stale}),
                     "invalid_request", "cursor")  # fmt: skip
    else:
        report.add(s, "cursor=...", False, "no next_cursor on a one-event page of a multi-event turn")
    a = await probe.call(s, {"id": c.event_id})
    expect_ok(report, s, "id=event", a, lambda env: None if (
        env["data"]["kind"] == "event" and "content" in env["data"] and "traversal" in env["data"]
    ) else "event without content or traversal")  # fmt: skip
    rows: list[tuple[str, dict[str, Any], str, str | None]] = [
        ("missing both id and cursor", {}, "invalid_request", None),
        ("blank id", {"id": "   "}, "invalid_request", "id"),
        ("malformed id", {"id": MALFORMED}, "invalid_id", "id"),
        ("well-formed unknown id (session)", {"id": c.unknown_ids["session"]}, "not_found", None),
        ("well-formed unknown id (turn)", {"id": c.unknown_ids["turn"]}, "not_found", None),
        ("well-formed unknown id (event)", {"id": c.unknown_ids["event"]}, "not_found", None),
        ("pagination argument with id=event", {"id": c.event_id, "limit": 2}, "invalid_request", None),
        ("unknown field", {"id": c.session_id, "depth": 2}, "invalid_request", None),
    ]
    for name, args, code, field in rows:
        expect_error(report, s, name, await probe.call(s, args), code, field)


async def run_matrix(probe: Probe, report: Report, corpus: Corpus, path: str) -> None:
    """Run every matrix row of the four tools."""
    await search_rows(probe, report, corpus)
    await list_rows(probe, report, corpus)
    await attention_rows(probe, report, corpus, path)
    await open_rows(probe, report, corpus)
