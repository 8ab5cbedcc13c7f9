"""ChatGPT export conversations read by the export reader and the ChatGPT adapter."""

from __future__ import annotations

import json
from pathlib import Path

from tests.harnesses.run import events, normalize_file

from moraine.harnesses._shared.export import ExportReader
from moraine.harnesses.chatgpt.adapter import ChatGptAdapter
from moraine.harness_api.model import IngestError, SessionInfo

EXPORT = Path(__file__).resolve().parent / "export" / "conversations.json"


def test_the_branch_last_shown_is_read_with_thoughts_tool_calls_results_and_answers() -> None:
    items, end = normalize_file(ChatGptAdapter(), EXPORT, reader=ExportReader())
    assert end == 2  # one position per conversation
    infos = [i for i in items if isinstance(i, SessionInfo)]
    assert [(i.session, i.title) for i in infos] == [
        ("6819a2b4-0c3d-8000-9e1f-2a3b4c5d6e7f", "Sourdough starter schedule"),
        ("6810ffee-0000-8000-9000-000000000001", "Oven temperature"),
    ]
    first = [e for e in events(items) if e.session == infos[0].session]
    kinds = "user_input reasoning tool_call tool_response assistant_response user_input"
    assert [e.type.value for e in first] == kinds.split()
    assert "chatgptdiscardedkeyword" not in " ".join(e.text for e in events(items))  # another branch
    call, result = first[2], first[3]
    assert (call.tool_name, call.arguments, call.model) == (
        "python",
        {"code": "hours = 24 / 2\nprint(hours)"},
        "o3",
    )
    assert (result.tool_call_id, result.text) == (call.tool_call_id, "12.0")
    assert first[4].is_final_answer and first[4].terminal
    assert first[5].text == "[image]\nHere is how it looks after 12 hours." and first[5].starts_turn
    assert first[0].timestamp is not None and first[0].timestamp.year == 2026


def test_a_conversation_without_a_mapping_and_a_broken_export_are_reported(tmp_path: Path) -> None:
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps([{"id": "x"}, "text"]) + "\n")
    items, _ = normalize_file(ChatGptAdapter(), export, reader=ExportReader())
    assert [i.reason for i in items if isinstance(i, IngestError)] == ["malformed_record", "malformed_record"]
    export.write_text('[{"id": "a", "mapping": {}}, {"id": ')
    reader = ExportReader()
    items, end = normalize_file(ChatGptAdapter(), export, reader=reader)
    assert [i.reason for i in items if isinstance(i, IngestError)] == ["malformed_export"] and end == 1
    assert normalize_file(ChatGptAdapter(), export, reader=reader, offset=end)[0] == []  # reported once
