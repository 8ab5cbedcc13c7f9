"""Zencoder: a header line, then messages by role, with the turn ended by a finish record."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.run import emitted, events, normalize
from moraine.harness_api.model import EventType, IngestError, RawRecord, SessionInfo, TerminalKind

SESSION = next((Path(__file__).resolve().parent / "home").rglob("*.jsonl"))


def test_a_session_reads_prompt_context_tools_and_a_finished_turn() -> None:
    items = emitted("zencoder", "jsonl", SESSION)
    assert not [i for i in items if isinstance(i, IngestError)]
    infos = [i for i in items if isinstance(i, SessionInfo)]
    assert infos[0].model == "claude-sonnet-4-5" and infos[-1].cwd == "/home/dev/guillemot-ledger"
    [prompt] = events(items, type=EventType.USER_INPUT)
    assert "zencoderguillemotkeyword" in prompt.text and "CONTRIBUTING" not in prompt.text
    assert any("CONTRIBUTING" in e.text for e in events(items, type=EventType.SYSTEM))
    calls = events(items, type=EventType.TOOL_CALL)
    assert [c.tool_name for c in calls] == ["Read", "Edit", "Bash"]
    edit_result = events(items, type=EventType.TOOL_RESPONSE, tool_call_id="toolu_zen_02")[0]
    assert edit_result.text == "The file ledger/totals.py has been updated."  # the tagged reminder left out
    [ending] = [e for e in events(items) if e.terminal]
    assert ending.terminal_kind is TerminalKind.FINAL_RESPONSE
    answers = [e for e in events(items, type=EventType.ASSISTANT_RESPONSE) if e.is_final_answer]
    assert answers[-1].text.startswith("Totals now follow")


def test_unknown_roles_and_stray_headers_are_errors_and_permissions_are_skipped() -> None:
    records = [
        RawRecord({"id": "z1", "createdAt": "2026-09-18T09:30:00Z"}, 1, 0),
        RawRecord({"role": "permission", "data": {"allowed": True}}, 2, 10),
        RawRecord({"role": "narrator", "content": "?"}, 3, 20),
        RawRecord({"id": "again"}, 4, 30),
        RawRecord("text", 5, 40),
    ]
    out = normalize("zencoder", records, SESSION)
    assert isinstance(out[0], SessionInfo) and out[0].session == "z1"
    assert [i.reason for i in out[1:] if isinstance(i, IngestError)] == [
        "unknown_record",
        "unknown_record",
        "malformed_record",
    ]
    assert len(out) == 4
