"""Amp: local thread documents read by message position, normalized."""

from __future__ import annotations

import json
from pathlib import Path

from moraine.harnesses.amp.thread_reader import AmpThreadReader
from moraine.harness_api.model import EventType, IngestError, SessionInfo
from tests.harnesses.run import assert_reported_then_read, emitted, events, normalize_data

THREAD = Path(__file__).parent / "home/.local/share/amp/threads/T-4c2a9e71-8d3b-4f05-a6e2-91b7c0d5e3f8.json"
SESSION = "T-4c2a9e71-8d3b-4f05-a6e2-91b7c0d5e3f8"


def test_the_thread_gives_title_tree_and_creation_time() -> None:
    infos = [i for i in emitted("amp", "amp_thread", THREAD) if isinstance(i, SessionInfo)]
    assert [(i.session, i.title, i.cwd) for i in infos] == [
        (SESSION, "Sourdough starter feeding reminder", "/home/dev/projects/bakery")
    ]
    assert infos[0].started_at is not None and infos[0].started_at.isoformat() == "2025-05-29T10:00:00+00:00"


def test_tool_uses_and_amp_run_results_are_linked_and_usage_is_per_message() -> None:
    items = emitted("amp", "amp_thread", THREAD)
    assert not [i for i in items if isinstance(i, IngestError)]
    calls = events(items, EventType.TOOL_CALL)
    assert [(c.tool_name, c.tool_call_id, c.model) for c in calls] == [
        ("Bash", "toolu_amp1", "claude-sonnet-4-20250514"),
        ("edit_file", "toolu_amp2", "claude-sonnet-4-20250514"),
    ]
    responses = events(items, EventType.TOOL_RESPONSE)
    assert [(r.tool_name, r.tool_call_id, r.tool_error) for r in responses] == [
        ("Bash", "toolu_amp1", False),
        ("edit_file", "toolu_amp2", False),
    ]
    assert responses[0].text == "reminders/schedule.py:22:def next_feeding(starter, now):"
    assert responses[1].text.startswith("@@ -22 +22 @@")
    usage = [e.usage for e in events(items) if e.usage]
    assert [(u.input, u.output, u.cache_read, u.cache_write) for u in usage] == [
        (12, 164, 0, 8120),
        (8, 121, 8120, 310),
        (6, 38, 8430, 0),
    ]
    final = [a for a in events(items, EventType.ASSISTANT_RESPONSE) if a.is_final_answer]
    assert [a.text[:20] for a in final] == ["The interval now fol"]


def test_a_rewritten_thread_yields_only_messages_after_the_saved_position(tmp_path: Path) -> None:
    document = json.loads(THREAD.read_text(encoding="utf-8"))
    path = tmp_path / THREAD.name
    path.write_text(json.dumps({**document, "messages": document["messages"][:2]}), encoding="utf-8")
    reader = AmpThreadReader()
    first = list(reader.read(path, 0, 0))
    path.write_text(json.dumps(document), encoding="utf-8")
    rest = list(reader.read(path, first[-1].end, first[-1].end_line))
    assert [i.record.data["index"] for i in first + rest if i.record] == [0, 1, 2, 3, 4, 5]
    path.write_text(json.dumps(document)[:50], encoding="utf-8")
    broken = [i.error.reason for i in reader.read(path, 6, 6) if i.error]
    again = [i.error.reason for i in reader.read(path, 6, 6) if i.error]
    assert (broken, again) == (["malformed_document"], [])


def test_malformed_amp_records_become_ingest_errors_not_crashes(tmp_path: Path) -> None:
    thread = {"id": SESSION, "created": 1748512800000}
    items = normalize_data(
        "amp",
        [
            {"record": "amp_message", "thread": {}, "message": {"role": "user"}},
            {"record": "amp_other"},
            {"record": "amp_message", "thread": thread, "message": {"role": "narrator", "content": []}},
            {
                "record": "amp_message",
                "thread": thread,
                "message": {"role": "assistant", "content": "text", "usage": {"timestamp": "noon"}},
            },
            {
                "record": "amp_message",
                "thread": thread,
                "message": {"role": "user", "content": [{"type": "text", "text": "still read"}]},
            },
        ],
        tmp_path / "T-x.json",
    )
    assert_reported_then_read(
        items, ["still read"], "malformed_record", "unknown_record", "unknown_record", "timestamp_parse_error"
    )
