"""Forge: its SQLite store read as conversation snapshots; a rewritten conversation yields only its new messages."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.harnesses.home import build_home
from tests.harnesses.run import errors, events, normalized, read_cleanly, responses

from moraine.harness_api.model import Event, EventType, TerminalKind, TokenUsage


def _store(tmp_path: Path) -> Path:
    return build_home(tmp_path, ["forge"]) / ".forge" / ".forge.db"


def test_a_conversation_reads_as_title_cwd_messages_calls_and_usage(tmp_path: Path) -> None:
    info, events = read_cleanly("forge", _store(tmp_path))
    assert (info.session, info.title, info.cwd) == (
        "0d7f5c1e-9a2b-4c3d-8e4f-5a6b7c8d9e0f",
        "Kettle timer rounding",
        "/home/dev/kettle",
    )
    assert [e.type for e in events][:3] == [EventType.USER_INPUT, EventType.REASONING, EventType.TOOL_CALL]
    assert not any("system_information" in e.text for e in events)
    assert responses(events) == [
        ("read", "toolu_01", False),
        ("patch", "toolu_02", False),
        ("shell", "toolu_03", True),
    ]
    assert events[1].usage == TokenUsage(input=2100 - 1800, output=64, cache_read=1800)
    final = [e for e in events if e.terminal]
    assert len(final) == 1 and final[0].is_final_answer
    assert final[0].terminal_kind is TerminalKind.FINAL_RESPONSE and final[0].text.startswith(
        "Ninety seconds"
    )


def test_usage_is_counted_once_per_assistant_message_with_cached_tokens_left_out_of_input(
    tmp_path: Path,
) -> None:
    """Hand count from the fixture's four assistant messages' ``usage`` (the user message's zeros are no call):
    prompt 2100/2300/2400/2500 of which cached 1800/2000/2200/2300, completion 64/90/30/40."""
    _, events = read_cleanly("forge", _store(tmp_path))
    used = [e.usage for e in events if e.usage is not None]
    assert len(used) == 4
    assert sum(u.input or 0 for u in used) == 300 + 300 + 200 + 200
    assert sum(u.cache_read or 0 for u in used) == 1800 + 2000 + 2200 + 2300
    assert sum(u.output or 0 for u in used) == 64 + 90 + 30 + 40


def test_a_grown_conversation_yields_only_its_new_messages(tmp_path: Path) -> None:
    store = _store(tmp_path)
    state: dict = {}
    first = events(normalized("forge", store, state=state))
    connection = sqlite3.connect(store)
    (context,) = connection.execute("SELECT context FROM conversations WHERE title IS NOT NULL").fetchone()
    document = json.loads(context)
    document["messages"].append(
        {
            "message": {
                "text": {
                    "role": "User",
                    "content": "Also fix zero seconds.",
                    "timestamp": "2026-06-10T09:05:00Z",
                }
            }
        }
    )
    connection.execute(
        "UPDATE conversations SET context = ?, updated_at = '2026-06-10 09:05:00' WHERE title IS NOT NULL",
        (json.dumps(document),),
    )
    connection.commit()
    connection.close()
    again = events(normalized("forge", store, state=state))
    assert len(first) > 5
    assert [(e.type, e.text) for e in again] == [(EventType.USER_INPUT, "Also fix zero seconds.")]


def test_a_context_that_is_not_json_is_reported_and_the_rest_is_read(tmp_path: Path) -> None:
    store = _store(tmp_path)
    connection = sqlite3.connect(store)
    connection.execute(
        "INSERT INTO conversations VALUES ('broken', 'x', 7, '{not json', '2026-06-11 08:00:00', NULL, NULL)"
    )
    connection.commit()
    connection.close()
    items = normalized("forge", store)
    assert [e.reason for e in errors(items)] == ["malformed_row"]
    assert any(isinstance(i, Event) and "forgeotterkeyword" in i.text for i in items)
