"""Claude.ai export conversations read by the export reader and the Claude.ai adapter."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.run import events, normalize_file

from moraine.harnesses._shared.export import ExportReader
from moraine.harnesses.claude_ai.adapter import ClaudeAiAdapter
from moraine.harness_api.model import EventType, IngestError, SessionInfo, TerminalKind

EXPORT = Path(__file__).resolve().parent / "export" / "conversations.json"


def test_a_conversation_reads_prompts_attachments_thinking_tool_use_and_each_turns_answer() -> None:
    items, _ = normalize_file(ClaudeAiAdapter(), EXPORT, reader=ExportReader())
    info = next(i for i in items if isinstance(i, SessionInfo))
    assert (info.session, info.title) == (
        "4be1c7a2-93d0-4f5e-8a21-6c0d9e3b7f58",
        "Greenhouse humidity alerts",
    )
    found = events(items)
    kinds = "user_input reasoning tool_call tool_response assistant_response user_input assistant_response"
    assert [e.type.value for e in found] == kinds.split()
    assert "[Attachment: alerts.yaml]\nhumidity:" in found[0].text and found[0].starts_turn
    assert (found[2].tool_name, found[2].arguments) == (
        "web_search",
        {"query": "greenhouse night humidity condensation"},
    )
    assert (found[3].tool_call_id, found[3].tool_error) == ("srvtoolu_1", False)
    assert found[5].text == "ok, and the max?"  # a message with only the top-level text
    answers = [e for e in found if e.is_final_answer]
    assert [a.text[:12] for a in answers] == ["The 1-minute", "Keep 70% but"]
    assert all(a.terminal_kind is TerminalKind.FINAL_RESPONSE for a in answers)
    assert found[-1].type is EventType.ASSISTANT_RESPONSE


def test_a_conversation_without_messages_is_reported(tmp_path: Path) -> None:
    export = tmp_path / "conversations.json"
    export.write_text('[{"uuid": "c"}, {"chat_messages": []}]')
    items, _ = normalize_file(ClaudeAiAdapter(), export, reader=ExportReader())
    assert [i.reason for i in items if isinstance(i, IngestError)] == ["malformed_record", "malformed_record"]
