"""OpenClaw and QClaw adapters over their fixture homes: pi's session tree plus usage, tool_use blocks, prompts."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.home import HARNESS_TESTS
from tests.harnesses.run import errors, events, normalized

from moraine.harness_api.model import Event, EventType, SessionInfo, TerminalKind, TokenUsage

OPENCLAW = next((HARNESS_TESTS / "openclaw/home/.openclaw/agents").rglob("*.jsonl"))
QCLAW = next((HARNESS_TESTS / "qclaw/home/.qclaw/agents").rglob("*.jsonl"))


def _events(name: str, path: Path) -> list[Event]:
    return events(normalized(name, path))


def test_each_model_call_carries_its_token_usage_once() -> None:
    used = [(e.type, e.usage) for e in _events("openclaw", OPENCLAW) if e.usage is not None]
    assert used == [
        (EventType.REASONING, TokenUsage(input=1200, output=85, cache_read=300, cache_write=0)),
        (EventType.ASSISTANT_RESPONSE, TokenUsage(input=1400, output=120, cache_read=1500, cache_write=0)),
        (EventType.TOOL_CALL, TokenUsage(input=1600, output=40, cache_read=2900, cache_write=0)),
        (EventType.ASSISTANT_RESPONSE, TokenUsage(input=1700, output=30, cache_read=4400, cache_write=0)),
    ]


def test_tool_calls_and_results_are_linked_and_the_stop_message_is_the_answer() -> None:
    events = _events("openclaw", OPENCLAW)
    calls = {e.tool_call_id: e.tool_name for e in events if e.type is EventType.TOOL_CALL}
    results = {e.tool_call_id: e.tool_name for e in events if e.type is EventType.TOOL_RESPONSE}
    assert calls == results == {"call_r1": "read", "call_e1": "edit", "call_b1": "bash"}
    final = [e for e in events if e.terminal]
    assert [(e.text, e.terminal_kind, e.is_final_answer) for e in final] == [
        ("Negative tide readings now parse; the gauge tests pass.", TerminalKind.FINAL_RESPONSE, True)
    ]
    assert [e.session for e in events] == ["7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f"] * len(events)


def test_the_first_prompt_loses_the_gateway_date_but_the_message_keeps_it() -> None:
    items = normalized("openclaw", OPENCLAW)
    prompts = [i.first_user_message for i in items if isinstance(i, SessionInfo) and i.first_user_message]
    assert prompts == ["The tide gauge parser drops negative readings, please fix it. openclawmarmotkeyword"]
    user = next(e for e in _events("openclaw", OPENCLAW) if e.type is EventType.USER_INPUT)
    assert user.text.startswith("[Mon 2026-05-04 10:00 GMT+2] ") and user.starts_turn


def test_a_qclaw_tool_use_block_is_a_tool_call_with_its_input_as_arguments() -> None:
    events = _events("qclaw", QCLAW)
    call = next(e for e in events if e.type is EventType.TOOL_CALL)
    assert (call.tool_name, call.tool_call_id, call.model) == ("write", "tu_w1", "deepseek-chat")
    assert call.arguments["path"] == "/home/dev/birdlog/README.md"
    assert call.usage == TokenUsage(input=640, output=52)
    assert not errors(normalized("qclaw", QCLAW))
