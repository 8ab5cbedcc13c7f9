"""Poolside: trajectory events -> prompts, thoughts, calls and results, usage on the next model event, the answer."""

from __future__ import annotations

from tests.harnesses.home import HARNESS_TESTS
from tests.harnesses.run import read_cleanly, responses

from moraine.harness_api.model import EventType, TerminalKind, TokenUsage

TRAJECTORY = next((HARNESS_TESTS / "poolside/home/.local/state/poolside/trajectories").glob("*.ndjson"))


def test_a_trajectory_reads_as_a_turn_with_calls_results_and_its_closing_answer() -> None:
    info, events = read_cleanly("poolside", TRAJECTORY)
    assert info.session == "build_6b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d9e" and info.cwd == "/home/dev/beacon"
    assert events[0].type is EventType.USER_INPUT and events[0].starts_turn
    assert responses(events) == [
        ("read", "call-r1", False),
        ("edit", "call-e1", False),
        ("shell", "call-s1", True),
    ]
    ends = [(e.type, e.terminal_kind, e.is_final_answer) for e in events if e.terminal]
    assert ends == [
        (EventType.ASSISTANT_RESPONSE, TerminalKind.FINAL_RESPONSE, True),
        (EventType.RUNTIME, TerminalKind.EXITED, False),
    ]


def test_each_inference_usage_lands_on_the_next_model_event_with_the_model() -> None:
    _, events = read_cleanly("poolside", TRAJECTORY)
    used = [(e.type, e.tool_name, e.model, e.usage) for e in events if e.usage is not None]
    assert used == [
        (EventType.REASONING, None, "poolside/malibu-2", TokenUsage(1500, 60, 1200, 0)),
        (EventType.TOOL_CALL, "edit", "poolside/malibu-2", TokenUsage(1700, 110, 1500, 0)),
    ]
