"""gptme: conversation.jsonl lines, tool uses written as fenced blocks, normalized."""

from __future__ import annotations

from pathlib import Path

from moraine.harness_api.model import EventType, IngestError, SessionInfo
from tests.harnesses.run import assert_reported_then_read, emitted, events, normalize_data

LOG = (
    Path(__file__).parent
    / "home/.local/share/gptme/logs/2025-08-19-lighthouse-blink-pattern/conversation.jsonl"
)
SESSION = "2025-08-19-lighthouse-blink-pattern"


def _items() -> list:
    return emitted("gptme", "jsonl", LOG)


def test_the_folder_names_the_session_and_replies_name_the_model() -> None:
    items = _items()
    assert not [i for i in items if isinstance(i, IngestError)]
    infos = [i for i in items if isinstance(i, SessionInfo)]
    assert [(i.session, i.model) for i in infos] == [
        (SESSION, None),
        (SESSION, "anthropic/claude-sonnet-4-20250514"),
    ]


def test_fenced_tool_blocks_are_calls_answered_by_the_following_outputs() -> None:
    items = _items()
    calls = events(items, EventType.TOOL_CALL)
    assert [(c.tool_name, c.arguments) for c in calls] == [
        ("shell", {"command": "cat /home/dev/projects/beacon/beacon/blink.py"}),
        (
            "save",
            {
                "path": "/home/dev/projects/beacon/beacon/blink.py",
                "content": "# Fl(2) 10s: two 0.5 s flashes 1 s apart, then dark until 10 s\nPATTERN = [(0.5, 1.0), (0.5, 8.0)]",
            },
        ),
    ]
    responses = events(items, EventType.TOOL_RESPONSE)
    assert [(r.tool_name, r.tool_call_id) for r in responses] == [
        (c.tool_name, c.tool_call_id) for c in calls
    ]
    assert [s.provenance for s in events(items, EventType.SYSTEM)] == [{"hidden": True}]


def test_usage_is_per_reply_and_the_reply_without_tools_is_the_answer() -> None:
    items = _items()
    usage = [e.usage for e in events(items) if e.usage]
    assert [(u.input, u.output, u.cache_read, u.cache_write) for u in usage] == [
        (2410, 58, 0, 2380),
        (96, 112, 2380, 0),
        (40, 31, 2476, 0),
    ]
    answers = events(items, EventType.ASSISTANT_RESPONSE)
    assert [a.is_final_answer for a in answers] == [False, False, True]


def test_malformed_gptme_records_become_ingest_errors_not_crashes(tmp_path: Path) -> None:
    items = normalize_data(
        "gptme",
        [
            "a line that is a string",
            {"role": "narrator", "content": "x"},
            {"role": "user", "content": "still read", "timestamp": "teatime"},
            {"role": "tool", "content": ""},
        ],
        tmp_path / "conv" / "conversation.jsonl",
    )
    assert_reported_then_read(
        items, ["still read", ""], "malformed_record", "unknown_record", "timestamp_parse_error"
    )
