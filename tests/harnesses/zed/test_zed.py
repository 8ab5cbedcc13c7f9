"""Zed: thread snapshots from threads.db (current zstd documents and legacy JSON ones), normalized."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from moraine.harnesses.zed.threads_reader import ZedThreadsReader
from moraine.ingest.adapters import adapter_for
from moraine.harness_api.adapter import StreamContext
from moraine.harness_api.model import Emitted, EventType, SessionInfo
from tests.harnesses.home import build_database
from tests.harnesses.run import assert_reported_then_read, emitted, events, normalize_data

DUMP = Path(__file__).parent / "home" / ".local" / "share" / "zed" / "threads" / "threads.db.sql"
CURRENT = "7f0c2d9e-54b1-4d7a-9a63-2e8f1c0b4d55"
LEGACY = "3a9d6e21-0f4c-4b8e-8d1a-6c7b2f9e0a13"


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return build_database(DUMP, tmp_path / "threads.db")


def _of(items: list[Emitted], session: str) -> list[Emitted]:
    return [i for i in items if getattr(i, "session", None) == session]


def test_a_compressed_current_thread_gives_title_folder_model_and_parentless_session(database: Path) -> None:
    infos = [i for i in emitted("zed", "zed_threads", database) if isinstance(i, SessionInfo)]
    assert [(i.session, i.title, i.cwd, i.model) for i in infos] == [
        (LEGACY, "Tide gauge offsets", None, "claude-3-7-sonnet-latest"),
        (CURRENT, "Aquaponics pump quiet hours", "/home/dev/projects/aquaponics", "claude-sonnet-4-5"),
    ]
    assert infos[1].started_at is not None and infos[1].started_at.isoformat().startswith(
        "2025-12-01T20:11:03"
    )


def test_agent_tool_calls_get_their_results_and_folder_relative_paths_their_place(database: Path) -> None:
    items = _of(emitted("zed", "zed_threads", database), CURRENT)
    calls = events(items, EventType.TOOL_CALL)
    assert [(c.tool_name, c.tool_call_id, c.cwd) for c in calls] == [
        ("read_file", "toolu_read1", "/home/dev/projects"),
        ("edit_file", "toolu_edit1", "/home/dev/projects"),
        ("terminal", "toolu_term1", "/home/dev/projects"),
    ]
    responses = events(items, EventType.TOOL_RESPONSE)
    assert [(r.tool_name, r.tool_call_id, r.tool_error) for r in responses] == [
        ("read_file", "toolu_read1", False),
        ("edit_file", "toolu_edit1", False),
        ("terminal", "toolu_term1", True),
    ]
    final = [a for a in events(items, EventType.ASSISTANT_RESPONSE) if a.is_final_answer]
    assert [a.text[:20] for a in final] == ["The pump now skips 2"]
    usage = [e.usage for e in items if getattr(e, "usage", None)]
    assert [(u.input, u.output, u.cache_read, u.cache_write) for u in usage] == [(9400, 610, 4100, 1200)]


def test_a_legacy_thread_reads_segments_tool_uses_and_results_on_the_user_side(database: Path) -> None:
    items = _of(emitted("zed", "zed_threads", database), LEGACY)
    assert [e.type for e in events(items)] == [
        EventType.USER_INPUT,
        EventType.REASONING,
        EventType.ASSISTANT_RESPONSE,
        EventType.TOOL_CALL,
        EventType.TOOL_RESPONSE,
        EventType.ASSISTANT_RESPONSE,
    ]
    response = events(items, EventType.TOOL_RESPONSE)[0]
    assert (response.tool_name, response.tool_call_id) == ("grep", "tool_1")
    assert [e.usage.output for e in events(items) if e.usage] == [60, 80]


def test_a_rewritten_thread_yields_only_its_new_messages_and_a_fresh_one_holds_its_last(
    database: Path,
) -> None:
    adapter = adapter_for("zed")
    assert adapter is not None
    ctx = StreamContext(path=database, source="zed")
    reader = ZedThreadsReader(
        clock=lambda: 1_764_620_200.0
    )  # 2025-12-01T20:16:40Z: the current thread is fresh
    first = [
        e for item in reader.read(database, 0, 0) if item.record for e in adapter.normalize(item.record, ctx)
    ]
    assert not [a for a in events(_of(first, CURRENT), EventType.ASSISTANT_RESPONSE) if a.is_final_answer]
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE threads SET updated_at = '2025-12-01T20:15:43Z' WHERE id = ?", (CURRENT,))
    connection.close()
    settled = ZedThreadsReader(clock=lambda: 1_764_700_000.0)
    again = [
        e for item in settled.read(database, 0, 0) if item.record for e in adapter.normalize(item.record, ctx)
    ]
    texts = [e.text for e in events(_of(again, CURRENT))]
    assert texts == [
        "The pump now skips 22:00-06:00. One test still assumes it runs at midnight; it needs updating."
    ]
    assert events(_of(again, LEGACY)) == []


def test_a_thread_whose_data_cannot_be_read_is_reported_once(database: Path) -> None:
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE threads SET data = X'28b52ffd0000' WHERE id = ?", (CURRENT,))
    connection.close()
    reader = ZedThreadsReader()
    first = [i.error.reason for i in reader.read(database, 0, 0) if i.error]
    second = [i.error.reason for i in reader.read(database, 0, 0) if i.error]
    assert (first, second) == (["malformed_row"], [])


def test_malformed_zed_records_become_ingest_errors_not_crashes(tmp_path: Path) -> None:
    thread = {"id": CURRENT, "updated_at": "2025-12-01T20:15:42Z"}
    items = normalize_data(
        "zed",
        [
            {"record": "zed_thread", "thread": {}, "document": {"messages": []}},
            {"record": "unknown"},
            {
                "record": "zed_thread",
                "thread": thread,
                "document": {"messages": [7, "Resume", {"User": {"content": [{"Text": "still read"}]}}]},
            },
            {
                "record": "zed_thread",
                "thread": {**thread, "updated_at": "later"},
                "document": {"messages": []},
            },
        ],
        tmp_path / "threads.db",
    )
    assert_reported_then_read(
        items, ["still read"], "malformed_record", "unknown_record", "timestamp_parse_error"
    )
