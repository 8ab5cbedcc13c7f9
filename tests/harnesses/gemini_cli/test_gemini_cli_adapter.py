"""Gemini CLI chats, both versions, read by its reader and adapter from the fixture home."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.harnesses.run import events, normalize_file

from moraine.harnesses.gemini_cli.adapter import GeminiCliAdapter
from moraine.harnesses.gemini_cli.reader import GeminiChatReader
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.jsonl import JsonlReader
from moraine.harness_api.model import Emitted, EventType, IngestError, SessionInfo, TerminalKind, TokenUsage
from moraine.harness_api.reader import Reader

HOME = Path(__file__).resolve().parent / "home" / ".gemini" / "tmp"
JSON_CHAT = next(HOME.glob("*/chats/session-*.json"))
JSONL_CHAT = next(HOME.glob("*/chats/session-*.jsonl"))


def read(reader: Reader, path: Path, ctx: StreamContext, offset: int = 0) -> tuple[list[Emitted], int]:
    """Return what the adapter makes of the records from ``offset``, and the position to resume from."""
    return normalize_file(GeminiCliAdapter(), path, ctx, reader, offset)


def test_a_json_chat_reads_prompts_thoughts_calls_results_usage_and_the_summary_title() -> None:
    items, _ = read(GeminiChatReader(), JSON_CHAT, StreamContext(JSON_CHAT, "gemini-cli"))
    infos = [item for item in items if isinstance(item, SessionInfo)]
    assert infos[0].session == "7c1e0a52-3b1d-4f7e-9a61-0d2c5e8b4f10"
    assert infos[0].cwd == "/home/dev/lagoon"  # projects.json names the hashed folder
    assert "Fix rounding in the lagoon salinity report" in {i.title for i in infos}
    found = events(items)
    assert [e.type for e in found[:4]] == [
        EventType.USER_INPUT,
        EventType.REASONING,
        EventType.ASSISTANT_RESPONSE,
        EventType.TOOL_CALL,
    ]
    assert found[0].starts_turn and "geminiquokkakeyword" in found[0].text
    assert found[1].usage is None  # the reply's counts go on its text, not its thoughts
    assert found[2].usage == TokenUsage(input=8210 - 4096, output=61 + 120, cache_read=4096, reasoning=120)
    calls = {e.tool_call_id: e for e in found if e.type is EventType.TOOL_CALL}
    responses = {e.tool_call_id: e for e in found if e.type is EventType.TOOL_RESPONSE}
    assert (
        set(calls)
        == set(responses)
        == {
            "read_file-1756720809870-0",
            "replace-1756720890004-0",
            "run_shell_command-1756720890004-1",
        }
    )
    assert calls["replace-1756720890004-0"].arguments["file_path"] == "/home/dev/lagoon/report.py"
    assert responses["run_shell_command-1756720890004-1"].tool_error is True
    assert responses["replace-1756720890004-0"].tool_error is False
    finals = [e for e in found if e.is_final_answer]
    assert len(finals) == 1 and finals[0].terminal_kind is TerminalKind.FINAL_RESPONSE
    assert "35.6" in finals[0].text  # answers that call tools are not the turn's answer
    assert [e.text for e in found if e.type is EventType.SYSTEM] == ["Request cancelled."]


def test_a_jsonl_chat_emits_a_message_written_twice_once_and_takes_the_title_from_a_set_record() -> None:
    items, _ = read(JsonlReader(), JSONL_CHAT, StreamContext(JSONL_CHAT, "gemini-cli-jsonl"))
    found = events(items)
    assert [e.type for e in found] == [
        EventType.USER_INPUT,
        EventType.REASONING,
        EventType.ASSISTANT_RESPONSE,
        EventType.TOOL_CALL,
        EventType.TOOL_RESPONSE,
        EventType.ASSISTANT_RESPONSE,
    ]
    assert {e.session for e in found} == {"41d96e0b-8c2a-4d55-b0f3-6a7e91c2d804"}
    assert found[0].cwd == "/home/dev/tidepool"  # the folder's name in projects.json
    assert found[3].arguments == {"file_path": "src/tidepool/cli.py", "content": "import argparse\n"}
    assert found[-1].is_final_answer and not found[2].is_final_answer
    assert "Tide CLI station flag" in {i.title for i in items if isinstance(i, SessionInfo)}


def test_a_jsonl_reply_written_again_with_grown_counts_keeps_its_final_counts() -> None:
    """Hand count from the JSONL chat's lines: reply ``9e20-a1`` is written with its thoughts and counts input 7001,
    output 20, then again with its text, a tool call and output 44 (the final counts); reply ``9e20-a2`` input 7300
    of which 4096 cached, output 12. One usage per reply: input 7001 + (7300 - 4096), cache read 4096, output
    44 + 12."""
    items, _ = read(JsonlReader(), JSONL_CHAT, StreamContext(JSONL_CHAT, "gemini-cli-jsonl"))
    used = [e for e in events(items) if e.usage is not None]
    assert [e.type for e in used] == [EventType.ASSISTANT_RESPONSE, EventType.ASSISTANT_RESPONSE]
    assert used[0].usage == TokenUsage(input=7001, output=44, cache_read=0, reasoning=None)
    assert sum(e.usage.input or 0 for e in used if e.usage) == 7001 + 7300 - 4096
    assert sum(e.usage.cache_read or 0 for e in used if e.usage) == 4096
    assert sum(e.usage.output or 0 for e in used if e.usage) == 44 + 12


def _chat(path: Path, messages: list[dict[str, Any]]) -> None:
    path.write_text(json.dumps({"sessionId": "s-grow", "messages": messages}), encoding="utf-8")


def test_the_newest_message_is_read_again_so_results_written_later_are_not_lost(tmp_path: Path) -> None:
    chat = tmp_path / "chats" / "session-grow.json"
    chat.parent.mkdir()
    call = {"id": "c1", "name": "run_shell_command", "args": {"command": "ls"}}
    user = {"id": "u", "type": "user", "content": "list it"}
    reply = {"id": "a", "type": "gemini", "content": "Listing.", "toolCalls": [call]}
    _chat(chat, [user, reply])
    ctx = StreamContext(chat, "gemini-cli")
    first, end = read(GeminiChatReader(), chat, ctx)
    assert [e.type for e in events(first)] == [
        EventType.USER_INPUT,
        EventType.ASSISTANT_RESPONSE,
        EventType.TOOL_CALL,
    ]
    result = {"functionResponse": {"id": "c1", "name": "run_shell_command", "response": {"output": "a.txt"}}}
    _chat(chat, [user, {**reply, "toolCalls": [{**call, "status": "success", "result": [result]}]}])
    second, end = read(GeminiChatReader(), chat, ctx, end)
    assert [(e.type, e.text) for e in events(second)] == [(EventType.TOOL_RESPONSE, "a.txt")]
    third, _ = read(GeminiChatReader(), chat, ctx, end)
    assert events(third) == []


def test_bad_input_is_reported_and_never_crashes(tmp_path: Path) -> None:
    broken = tmp_path / "session-broken.json"
    broken.write_text('{"sessionId": "x", "messages": [', encoding="utf-8")
    reader = GeminiChatReader()
    once = [item.error for item in reader.read(broken, 0, 0)]
    assert len(once) == 1 and isinstance(once[0], IngestError)
    assert list(reader.read(broken, 0, 0)) == []  # the same broken version is reported once
    lines = tmp_path / "session-bad.jsonl"
    lines.write_text(
        '[1, 2]\n{"what": "else"}\n{"sessionId": "y"}\n{"type": "user", "content": 7}\n', encoding="utf-8"
    )
    items, _ = read(JsonlReader(), lines, StreamContext(lines, "gemini-cli-jsonl"))
    errors = [item.reason for item in items if isinstance(item, IngestError)]
    assert errors == ["malformed_record", "unknown_record"]
    assert events(items) == []


def test_a_newest_message_without_an_id_is_not_emitted_twice_when_read_again(tmp_path: Path) -> None:
    chat = tmp_path / "chats" / "session-noid.json"
    chat.parent.mkdir()
    _chat(chat, [{"type": "user", "content": "hello"}])
    ctx = StreamContext(chat, "gemini-cli")
    first, end = read(GeminiChatReader(), chat, ctx)
    assert [e.text for e in events(first)] == ["hello"]
    _chat(chat, [{"type": "user", "content": "hello"}, {"type": "gemini", "content": "hi"}])
    second, _ = read(GeminiChatReader(), chat, ctx, end)
    assert [e.text for e in events(second)] == ["hi"]


def test_an_init_session_is_titled_by_the_command_not_by_geminis_instructions(tmp_path: Path) -> None:
    # Issue 44: /init submits Gemini's own prompt as the user message, and the session was titled with it.
    chat = tmp_path / "chats" / "session-init.json"
    chat.parent.mkdir()
    instructions = (
        "\nYou are an AI agent that brings the power of Gemini directly into the terminal. Your task is to analyze "
        "the current directory and generate a comprehensive GEMINI.md file to be used as instructional context "
        "for future interactions.\n\n**Analysis Process:**\n\n1.  **Initial Exploration:**\n"
    )
    user = {"id": "u1", "timestamp": "2025-08-01T10:00:00.000Z", "type": "user", "content": instructions}
    info = {
        "id": "i1",
        "timestamp": "2025-08-01T10:00:00.100Z",
        "type": "info",
        "content": "Empty GEMINI.md created.",
    }
    reply = {
        "id": "g1",
        "timestamp": "2025-08-01T10:00:30.000Z",
        "type": "gemini",
        "content": "Wrote GEMINI.md.",
    }
    _chat(chat, [user, info, reply])
    items, _ = read(GeminiChatReader(), chat, StreamContext(chat, "gemini-cli"))
    said = [(e.type, e.text, e.starts_turn) for e in events(items)]
    assert said[0] == (EventType.USER_INPUT, "/init", True)
    assert said[1] == (EventType.SYSTEM, instructions, False)
    assert [e.text for e in events(items, EventType.USER_INPUT)] == ["/init"]
