"""Aider: the Markdown chat history split into runs and blocks, read incrementally, normalized."""

from __future__ import annotations

from pathlib import Path

from moraine.harnesses.aider.markdown_reader import AiderMarkdownReader
from moraine.harness_api.model import EventType, SessionInfo
from tests.harnesses.run import assert_reported_then_read, emitted, events, normalize_data

HISTORY = Path(__file__).parent / "home" / "src" / "apiary" / ".aider.chat.history.md"


def _items() -> list:
    return emitted("aider", "aider_markdown", HISTORY)


def test_each_run_header_is_a_session_started_at_its_time_in_the_repository() -> None:
    infos = [i for i in _items() if isinstance(i, SessionInfo) and i.started_at is not None]
    assert [i.started_at.isoformat() for i in infos] == [
        "2025-09-14T08:30:12+00:00",
        "2025-09-15T19:02:44+00:00",
    ]
    assert {i.cwd for i in infos} == {str(HISTORY.parent)}
    assert len({i.session for i in infos}) == 2


def test_prompts_open_turns_and_every_reply_is_a_final_answer_with_the_main_model() -> None:
    items = _items()
    prompts = events(items, EventType.USER_INPUT)
    assert [p.text for p in prompts] == [
        "swarm alert fires nightly on a stable hive aiderswarmkeyword",
        "/run pytest -q tests/test_alerts.py",
        "thanks, also add a note to the changelog",
        "what does the queen excluder sensor report when the frame is missing?",
    ]
    assert all(p.starts_turn for p in prompts)
    replies = events(items, EventType.ASSISTANT_RESPONSE)
    assert [r.is_final_answer for r in replies] == [True, True, True]
    assert {r.model for r in replies} == {"anthropic/claude-sonnet-4-20250514"}
    assert "<<<<<<< SEARCH" in replies[0].text


def test_applied_edits_created_files_and_run_commands_become_tool_calls_with_responses() -> None:
    items = _items()
    calls = events(items, EventType.TOOL_CALL)
    assert [(c.tool_name, c.arguments) for c in calls] == [
        ("edit", {"path": "hive/alerts.py"}),
        ("shell", {"command": "pytest -q tests/test_alerts.py"}),
        ("write", {"path": "CHANGELOG.md"}),
        ("edit", {"path": "CHANGELOG.md"}),
    ]
    responses = {r.tool_call_id: r for r in events(items, EventType.TOOL_RESPONSE)}
    assert set(responses) == {c.tool_call_id for c in calls}
    assert "4 passed in 0.31s" in responses[calls[1].tool_call_id].text


def test_token_reports_give_the_usage_of_the_reply_before_them() -> None:
    """Hand count from the history's three ``Tokens:`` lines: 5.2k sent of which 1.1k cache hit, 214 received;
    5.6k sent, 96 received; 3.9k sent, 48 received ("sent" includes the cache hits, left out of input)."""
    usage = [e.usage for e in events(_items(), EventType.RUNTIME)]
    assert [(u.input, u.output, u.cache_read) for u in usage if u] == [
        (5200 - 1100, 214, 1100),
        (5600, 96, None),
        (3900, 48, None),
    ]


def test_an_appended_history_is_read_from_where_the_last_pass_stopped(tmp_path: Path) -> None:
    text = HISTORY.read_text(encoding="utf-8")
    cut = text.index("# aider chat started at 2025-09-15")
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(text[:cut] + "#### half a promp", encoding="utf-8")
    reader = AiderMarkdownReader()
    first = list(reader.read(path, 0, 0))
    # The block before a line still being written waits with it: it may not be complete yet.
    assert first[-1].record is not None and first[-1].record.data["channel"] == "assistant"
    path.write_text(text, encoding="utf-8")
    rest = list(reader.read(path, first[-1].end, first[-1].end_line))
    whole = list(reader.read(path, 0, 0))
    assert [i.record.data for i in first + rest if i.record] == [i.record.data for i in whole if i.record]


def test_malformed_aider_records_become_ingest_errors_not_crashes(tmp_path: Path) -> None:
    items = normalize_data(
        "aider",
        [
            "a string",
            {"record": "aider_block", "channel": "user", "lines": ["before any run"]},
            {"record": "aider_run", "started": "not a time"},
            {"record": "aider_block", "channel": "sideways", "lines": []},
            {"record": "aider_block", "channel": "user", "lines": [3, "still read"]},
        ],
        tmp_path / ".aider.chat.history.md",
    )
    assert_reported_then_read(
        items, ["still read"], "unknown_record", "timestamp_parse_error", "unknown_record"
    )
