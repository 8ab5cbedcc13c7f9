"""Visual Studio Copilot: OpenTelemetry trace spans stitched into one conversation's turns, tools and usage."""

from __future__ import annotations

import json
from pathlib import Path

from tests.harnesses.run import emitted, events, normalize
from moraine.harness_api.model import EventType, IngestError, RawRecord, SessionInfo, TokenUsage

TRACE = next((Path(__file__).resolve().parent / "home").rglob("*_VSGitHubCopilot_traces.jsonl"))


def _envelope(*spans: dict[str, object]) -> dict[str, object]:
    return {"resourceSpans": [{"resource": {}, "scopeSpans": [{"scope": {}, "spans": list(spans)}]}]}


def _span(operation: str, **attributes: str) -> dict[str, object]:
    values = {"gen_ai.operation.name": operation, **attributes}
    return {
        "spanId": "e1",
        "startTimeUnixNano": "1789600000000000000",
        "endTimeUnixNano": "1789600001000000000",
        "attributes": [{"key": k.replace("__", "."), "value": {"stringValue": v}} for k, v in values.items()],
    }


def test_chat_spans_give_one_prompt_and_the_replies_with_calls_answered_by_tool_spans() -> None:
    items = emitted("visual-studio-copilot", "jsonl", TRACE)
    assert not [i for i in items if isinstance(i, IngestError)]
    [prompt] = events(items, type=EventType.USER_INPUT)  # repeated in every chat span's input, read once
    assert "vspuffinkeyword" in prompt.text and prompt.starts_turn
    calls = events(items, type=EventType.TOOL_CALL)
    assert [c.tool_call_id for c in calls] == ["call_vs_0101", "call_vs_0102", "call_vs_0103"]
    responses = events(items, type=EventType.TOOL_RESPONSE)
    assert [r.tool_call_id for r in responses] == [c.tool_call_id for c in calls]
    assert responses[0].text.startswith("namespace Puffins.Survey;")  # the {"Value": ...} result unwrapped
    [final] = [e for e in events(items, type=EventType.ASSISTANT_RESPONSE) if e.is_final_answer]
    assert final.usage == TokenUsage(input=19298, output=61) and final.model == "gpt-5.5-2026-03-05"
    [info] = [i for i in items if isinstance(i, SessionInfo)]
    assert info.session == "7e3b1c95-2a4d-4f86-9c0e-b5d81a6f2c47" and info.started_at is not None


def test_a_tool_span_without_a_chat_span_brings_its_own_call() -> None:
    span = _span(
        "execute_tool",
        gen_ai__conversation__id="conv-1",
        gen_ai__tool__name="create_file",
        gen_ai__tool__call__id="call_1",
        gen_ai__tool__call__arguments=json.dumps({"path": "src/Nest.cs", "content": "class Nest {}"}),
        gen_ai__tool__call__result="Created src/Nest.cs.",
    )
    call, response = normalize("visual-studio-copilot", [RawRecord(_envelope(span), 1, 0)], TRACE)
    assert call in events([call], type=EventType.TOOL_CALL) and call.arguments["path"] == "src/Nest.cs"
    assert response in events([response], type=EventType.TOOL_RESPONSE, tool_call_id="call_1")


def test_lines_that_are_not_trace_envelopes_or_spans_without_a_conversation_are_errors() -> None:
    bad = [
        RawRecord({"spans": []}, 1, 0),
        RawRecord(_envelope(_span("chat")), 2, 10),
        RawRecord(_envelope(_span("embeddings", gen_ai__conversation__id="c")), 3, 20),
    ]
    out = normalize("visual-studio-copilot", bad, TRACE)
    assert [i.reason for i in out if isinstance(i, IngestError)] == ["unknown_record", "malformed_record"]
    assert len(out) == 2  # an operation we do not read yields nothing
