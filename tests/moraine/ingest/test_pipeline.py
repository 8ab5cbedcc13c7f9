"""The ingest pipeline end to end on the real store, with a tiny test adapter (``toy_adapter.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from moraine.config import SourceConfig
from moraine.errors import StoreError
from moraine.ids import session_key
from moraine.ingest.pipeline import Ingestor, IngestSummary, ingest_paths
from moraine.store.client import Store
from tests.moraine.ingest.toy_adapter import ToyAdapter

TABLES = ("events", "turns", "sessions", "postings", "doc_stats", "checkpoints", "ingest_errors", "touches")


def write_lines(path: Path, records: list[Any], mode: str = "w") -> None:
    with path.open(mode, encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record) + "\n")


def conversation(session: str = "s1", turns: int = 2, prefix: str = "") -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = [{"session": session, "info": {"title": f"{prefix}title"}}]
    for turn in range(1, turns + 1):
        records += [
            {
                "session": session,
                "type": "user_input",
                "text": f"{prefix}question {turn} about parseConfigFile",
                "starts_turn": True,
                "ts": f"2026-01-01T00:0{turn}:00.123456+00:00",
            },
            {
                "session": session,
                "type": "tool_call",
                "tool": "Bash",
                "args": {"command": f"pytest tests/test_{prefix}{turn}.py"},
                "model": "gpt-5",
                "ts": f"2026-01-01T00:0{turn}:01Z",
            },
            {
                "session": session,
                "type": "assistant_response",
                "text": f"{prefix}answer {turn}",
                "final": True,
                "terminal": True,
                "terminal_kind": "final_response",
                "ts": f"2026-01-01T00:0{turn}:02Z",
            },
        ]
    return records


def ingest(store: Store, *paths: Path, **options: Any) -> IngestSummary:
    return ingest_paths(store, list(paths), source="codex", harness="codex", adapter=ToyAdapter(), **options)


def counts(store: Store) -> dict[str, int]:
    return {t: int(store.query(f"SELECT count() FROM {store.table(t)}")[0][0]) for t in TABLES}


def events(store: Store) -> list[tuple[Any, ...]]:
    return store.query(
        f"SELECT session_key, seq, turn_seq, ordinal, type, text FROM {store.table('events')} ORDER BY session_key, seq"
    )


def test_events_get_seq_turn_and_ordinal_and_turns_get_aggregates(store: Store, tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    write_lines(trace, [{"session": "s1", "type": "system", "text": "boot"}, *conversation(turns=2)])
    summary = ingest(store, trace)
    key = session_key("codex", "s1")
    assert (summary.files, summary.events, summary.sessions, summary.errors) == (1, 7, 1, 0)
    assert [row[1:5] for row in events(store)] == [
        (1, 1, 1, "system"),
        (2, 1, 2, "user_input"),
        (3, 1, 3, "tool_call"),
        (4, 1, 4, "assistant_response"),
        (5, 2, 1, "user_input"),
        (6, 2, 2, "tool_call"),
        (7, 2, 3, "assistant_response"),
    ]
    turns = store.query(
        f"SELECT turn_seq, first_seq, last_seq, event_count, completed, terminal_seq, user_input_seq, "
        f"user_input_text, final_seq, final_text, tools_called, event_types, started_at, updated_at "
        f"FROM {store.table('turns')} FINAL WHERE session_key = {{k:UInt64}} ORDER BY turn_seq",
        {"k": key},
    )
    assert [row[:12] for row in turns] == [
        (
            1, 1, 4, 4, 1, 4, 2, "question 1 about parseConfigFile", 4, "answer 1", ["Bash"],
            ["system", "user_input", "tool_call", "assistant_response"],
        ),
        (
            2, 5, 7, 3, 1, 7, 5, "question 2 about parseConfigFile", 7, "answer 2", ["Bash"],
            ["user_input", "tool_call", "assistant_response"],
        ),
    ]  # fmt: skip
    assert str(turns[0][12]) == "2026-01-01 00:01:00.123000"
    session = store.query(
        f"SELECT title, model, turn_count, event_count, completed, mode, harness_session_id, source, harness "
        f"FROM {store.table('sessions')} FINAL"
    )
    assert session == [("title", "gpt-5", 2, 7, 1, "tool_calling", "s1", "codex", "codex")]


def test_timestamps_are_utc_milliseconds_and_missing_ones_stay_null(store: Store, tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    write_lines(
        trace,
        [
            {"session": "s", "text": "a", "ts": "2026-03-01T10:00:00.987654+02:00"},
            {"session": "s", "text": "b"},
        ],
    )
    ingest(store, trace)
    rows = store.query(f"SELECT toString(timestamp) FROM {store.table('events')} ORDER BY seq")
    assert rows == [("2026-03-01 08:00:00.987",), (None,)]


def test_tool_calls_are_findable_by_their_argument_values(store: Store, tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    write_lines(trace, conversation(turns=1))
    ingest(store, trace)
    rows = store.query(
        f"SELECT type FROM {store.table('postings')} WHERE term = {{t:String}}", {"t": "tests/test_1.py"}
    )
    assert rows == [("tool_call",)]
    summary = store.query(f"SELECT summary FROM {store.table('events')} WHERE type = 'tool_call'")
    assert summary == [("pytest tests/test_1.py",)]


def test_doc_len_and_postings_agree_with_doc_stats(store: Store, tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    write_lines(trace, conversation(turns=3))
    ingest(store, trace, batch_size=2)
    ((docs, total),) = store.query(f"SELECT sum(docs), sum(total_len) FROM {store.table('doc_stats')}")
    ((ev_docs, ev_total),) = store.query(
        f"SELECT countIf(doc_len > 0), sum(doc_len) FROM {store.table('events')}"
    )
    assert (docs, total) == (ev_docs, ev_total) == (9, ev_total)
    (tf_total,) = store.query(f"SELECT sum(tf) FROM {store.table('postings')}")[0]
    assert tf_total == ev_total


def test_rerunning_ingest_adds_no_rows(store: Store, tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    write_lines(trace, conversation(turns=3))
    ingest(store, trace, batch_size=2)
    before = counts(store)
    again = ingest(store, trace, batch_size=2)
    assert before["events"] == 9
    assert (again.events, again.unchanged) == (0, 1)
    assert counts(store) == before


def test_appending_lines_adds_exactly_the_new_events(store: Store, tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    records = conversation(turns=3)
    write_lines(trace, records[:4])
    with trace.open("a") as handle:  # an incomplete trailing line waits for the next pass
        handle.write(json.dumps(records[4])[:10])
    first = ingest(store, trace)
    assert (first.events, first.errors) == (3, 0)
    with trace.open("a") as handle:
        handle.write(json.dumps(records[4])[10:] + "\n")
    write_lines(trace, records[5:], mode="a")
    second = ingest(store, trace)
    assert (second.events, second.errors) == (6, 0)
    assert [row[1:4] for row in events(store)] == [
        (seq, (seq - 1) // 3 + 1, (seq - 1) % 3 + 1) for seq in range(1, 10)
    ]
    turns = store.query(
        f"SELECT turn_seq, event_count, completed FROM {store.table('turns')} FINAL ORDER BY turn_seq"
    )
    assert turns == [(1, 3, 1), (2, 3, 1), (3, 3, 1)]
    assert store.query(f"SELECT event_count, turn_count FROM {store.table('sessions')} FINAL") == [(9, 3)]


def test_truncated_and_rewritten_file_yields_the_new_content_exactly_once(
    store: Store, tmp_path: Path
) -> None:
    trace = tmp_path / "a.jsonl"
    write_lines(trace, conversation(turns=3, prefix="old"))
    ingest(store, trace)
    write_lines(trace, conversation(turns=1, prefix="new"))
    summary = ingest(store, trace)
    assert summary.rewritten == 1
    texts = [row[5] for row in events(store)]
    assert texts == ["newquestion 1 about parseConfigFile", "", "newanswer 1"]
    assert store.query(f"SELECT count() FROM {store.table('postings')} WHERE term = 'oldanswer'") == [(0,)]
    assert store.query(f"SELECT count() FROM {store.table('turns')} FINAL") == [(1,)]
    assert store.query(f"SELECT title, event_count, generation FROM {store.table('sessions')} FINAL") == [
        ("newtitle", 3, 1)
    ]
    assert ingest(store, trace).events == 0


def test_the_same_session_in_two_files_gets_separate_keys(store: Store, tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_lines(first, conversation("shared", turns=1))
    write_lines(second, conversation("shared", turns=2))
    ingest(store, first, second)
    keys = store.query(
        f"SELECT session_key, count(), max(seq) FROM {store.table('events')} GROUP BY session_key ORDER BY count()"
    )
    assert [(count, top) for _, count, top in keys] == [(3, 3), (6, 6)]
    assert keys[0][0] == session_key("codex", "shared")


def test_sources_without_an_adapter_are_reported_not_failed(store: Store, tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    write_lines(trace, conversation())
    summary = ingest_paths(store, [trace], source="future", harness="future-harness")
    assert summary.no_adapter == ["future"]
    assert counts(store)["events"] == 0


def test_session_info_before_events_and_parent_sessions_are_kept(store: Store, tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    write_lines(
        trace,
        [
            {"session": "child", "info": {"parent_session": "root", "slug": "s-l-u-g", "cwd": "/w"}},
            {"session": "child", "text": "hi", "starts_turn": True},
        ],
    )
    ingest(store, trace)
    rows = store.query(f"SELECT parent_session_key, slug, cwd, mode FROM {store.table('sessions')} FINAL")
    assert rows == [(session_key("codex", "root"), "s-l-u-g", "/w", "chat")]


@pytest.mark.parametrize("batch_size", [1, 3, 1000])
def test_batch_size_does_not_change_the_rows(store: Store, tmp_path: Path, batch_size: int) -> None:
    trace = tmp_path / "a.jsonl"
    write_lines(trace, conversation(turns=4))
    ingest(store, trace, batch_size=batch_size)
    assert [row[1:5] for row in events(store)] == [
        (
            seq,
            (seq - 1) // 3 + 1,
            (seq - 1) % 3 + 1,
            ("user_input", "tool_call", "assistant_response")[(seq - 1) % 3],
        )
        for seq in range(1, 13)
    ]
    assert store.query(f"SELECT count() FROM {store.table('turns')} FINAL") == [(4,)]


def test_a_store_failure_mid_publish_is_recovered_by_the_next_pass_of_the_same_ingestor(
    store: Store, tmp_path: Path
) -> None:
    trace = tmp_path / "a.jsonl"
    records = conversation(turns=3)
    write_lines(trace, records[:4])
    ingestor = Ingestor(store, adapters={"codex": ToyAdapter()})
    source = SourceConfig("codex", "codex", f"{tmp_path}/*.jsonl", str(tmp_path))
    assert ingestor.run([source]).events == 3
    write_lines(trace, records[4:], mode="a")
    postings, hidden = store.table("postings"), store.table("postings_hidden")
    store.command(f"RENAME TABLE {postings} TO {hidden}")  # events, turns and sessions land; postings fail
    with pytest.raises(StoreError):
        ingestor.run([source])
    store.command(f"RENAME TABLE {hidden} TO {postings}")
    assert store.query(f"SELECT count() FROM {store.table('events')}") == [(9,)]  # the half-published batch
    assert ingestor.run([source]).events == 6
    assert store.query(f"SELECT count(), uniqExact(seq) FROM {store.table('events')}") == [(9, 9)]
    assert store.query(f"SELECT sum(docs) FROM {store.table('doc_stats')}") == [(9,)]
