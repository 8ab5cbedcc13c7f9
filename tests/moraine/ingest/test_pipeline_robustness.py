"""Nothing a trace file contains stops ingest: garbage is reported and skipped, secrets never reach the store."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from moraine.harness_api.adapter import StreamContext
from moraine.harness_api.model import Emitted, Event, EventType, RawRecord, SessionInfo
from moraine.ingest.pipeline import ingest_paths
from moraine.store.client import Store
from tests.moraine.ingest.test_pipeline import TABLES, conversation, ingest, write_lines

SECRETS = (
    "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "sk-ant-api03-ZyXwVuTsRqPoNmLkJiHgFeDcBa98",
    "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
    "AKIAIOSFODNN7EXAMPLE",
    "xoxb-1111111111-2222222222-abcdefghijkl",
    "AIzaSyD-0123456789abcdefghijklmnopqrstu",
    "eyJhbGciOiJIUzI1NiJ9.payloadpart.signature",
    "hunter2-db-pass",
    "MIIEowIBAAKCAQEAsecretkeymaterial",
    "s3cr3t-assign-value",
)


def errors(store: Store) -> list[tuple[Any, ...]]:
    return store.query(
        f"SELECT path, line_no, reason FROM {store.table('ingest_errors')} ORDER BY path, line_no"
    )


def test_garbage_files_are_reported_and_skipped_while_other_files_ingest_fully(
    store: Store, tmp_path: Path
) -> None:
    good = tmp_path / "good.jsonl"
    write_lines(good, conversation(turns=2))
    (tmp_path / "binary.jsonl").write_bytes(os.urandom(4096).replace(b"\n", b"") + b"\n\x00\x01\x02\n")
    (tmp_path / "utf8.jsonl").write_bytes(b'{"session": "u", "text": "\xff\xfe bad"}\n')
    (tmp_path / "huge.jsonl").write_bytes(b'{"session": "h", "text": "' + b"x" * 10_000_000 + b"\n")
    (tmp_path / "deep.jsonl").write_text("[" * 200_000 + "]" * 200_000 + "\n")
    wrong = [
        {"session": 5, "text": "x"},
        {"session": "w", "type": "no_such_type"},
        {"session": "w", "text": {"not": "a string"}},
        {"session": "w", "ts": "yesterday"},
        {"session": "w", "info": ["not", "an", "object"]},
        ["an", "array"],
        None,
        12.5,
        "a string",
    ]
    write_lines(tmp_path / "wrong.jsonl", wrong)
    summary = ingest(store, tmp_path)
    assert summary.events == 6
    assert store.query(f"SELECT count() FROM {store.table('events')}") == [(6,)]
    reasons = {(Path(path).name, reason) for path, _, reason in errors(store)}
    assert ("utf8.jsonl", "invalid_utf8") in reasons
    assert ("huge.jsonl", "invalid_json") in reasons
    assert ("deep.jsonl", "json_too_deep") in reasons
    assert ("binary.jsonl", "invalid_json") in reasons or ("binary.jsonl", "invalid_utf8") in reasons
    wrong_reasons = [reason for path, _, reason in errors(store) if path.endswith("wrong.jsonl")]
    assert len(wrong_reasons) == len(wrong)
    assert summary.errors == len(errors(store))


def test_a_line_longer_than_the_limit_is_skipped_without_losing_the_next_line(tmp_path: Path) -> None:
    from moraine.harnesses._shared.jsonl import JsonlReader

    trace = tmp_path / "a.jsonl"
    trace.write_bytes(b'{"a": 1}\n' + b"y" * 5000 + b'\n{"b": 2}\n{"c"')
    items = list(JsonlReader(max_line_bytes=1000, chunk_bytes=256).read(trace, 0, 0))
    assert [
        (i.line_no, i.record.data if i.record else i.error.reason if i.error else None) for i in items
    ] == [
        (1, {"a": 1}),
        (2, "line_too_long"),
        (3, {"b": 2}),
    ]
    assert items[-1].end == trace.stat().st_size - len(b'{"c"')


class _RaisingAdapter:
    harness = "codex"

    def normalize(self, record: RawRecord, ctx: StreamContext) -> Iterable[Emitted]:
        if record.data.get("boom"):
            raise KeyError("boom")
        return [Event(session="s", type=EventType.USER_INPUT, text=str(record.data.get("text", "")))]


class _BadTypesAdapter:
    harness = "codex"

    def normalize(self, record: RawRecord, ctx: StreamContext) -> Iterable[Emitted]:
        bad: Any = record.data.get("bad")
        if bad == "text":
            return [Event(session="s", type=EventType.USER_INPUT, text=bad and 5)]  # type: ignore[arg-type]  # deliberately wrong
        if bad == "exit":
            return [Event(session="s", type=EventType.TOOL_RESPONSE, exit_code=2**40)]
        if bad == "info":
            return [SessionInfo(session="s", title=7)]  # type: ignore[arg-type]  # deliberately wrong
        if bad == "object":
            return ["not an item"]  # type: ignore[list-item]  # deliberately wrong
        return [Event(session="s", type=EventType.USER_INPUT, text="fine")]


def test_adapter_failures_and_ill_typed_items_become_ingest_errors(store: Store, tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    write_lines(trace, [{"text": "one"}, {"boom": True}, {"text": "two"}])
    summary = ingest_paths(store, [trace], source="codex", harness="codex", adapter=_RaisingAdapter())
    assert (summary.events, summary.errors) == (2, 1)
    other = tmp_path / "b.jsonl"
    write_lines(other, [{"bad": "text"}, {"bad": "exit"}, {"bad": "info"}, {"bad": "object"}, {}])
    summary = ingest_paths(store, [other], source="codex", harness="codex", adapter=_BadTypesAdapter())
    assert (summary.events, summary.errors) == (1, 4)
    assert [r for _, _, r in errors(store)] == ["adapter_error"] + ["invalid_event"] * 4


def test_planted_secrets_are_absent_from_every_table(store: Store, tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    s = SECRETS
    write_lines(
        trace,
        [
            {"session": "x", "info": {"title": f"deploy with {s[0]}", "summary": f"token={s[9]}"}},
            {
                "session": "x",
                "type": "user_input",
                "text": f"my key is {s[1]} and {s[2]}",
                "starts_turn": True,
            },
            {
                "session": "x",
                "type": "tool_call",
                "tool": "Bash",
                "args": {"command": f"AWS_ACCESS_KEY_ID={s[3]} curl -H 'Authorization: Bearer {s[6]}'"},
                "prov": f"slack {s[4]}",
            },
            {"session": "x", "type": "tool_call", "tool": "Write", "args": {"password": s[7], "key": s[5]}},
            {
                "session": "x",
                "type": "tool_response",
                "text": f"-----BEGIN RSA PRIVATE KEY-----\n{s[8]}\n-----END RSA PRIVATE KEY-----",
            },
            {"session": "x", "type": "assistant_response", "text": f"postgres://admin:{s[7]}@db:5432/app"},
        ],
    )
    (tmp_path / "b.jsonl").write_text(f"not json but has {s[0]} in it\n")
    ingest(store, tmp_path)
    assert store.query(f"SELECT count() FROM {store.table('events')}") == [(5,)]
    assert store.query(f"SELECT count() FROM {store.table('ingest_errors')}") == [(1,)]
    for table in TABLES:
        dump = json.dumps(store.query(f"SELECT * FROM {store.table(table)}"), default=str)
        for secret in SECRETS:
            assert secret not in dump, (table, secret)
    texts = [row[0] for row in store.query(f"SELECT text FROM {store.table('events')} ORDER BY seq")]
    assert "[REDACTED:anthropic-api-key]" in texts[0]


def test_redaction_can_be_turned_off(store: Store, tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    write_lines(trace, [{"session": "x", "text": f"key {SECRETS[0]}"}])
    ingest(store, trace, redact=False)
    assert store.query(f"SELECT text FROM {store.table('events')}") == [(f"key {SECRETS[0]}",)]
