"""Posit Assistant: conversation folders with their model messages, abandoned branches and sub-agents."""

from __future__ import annotations

from tests.harnesses.home import HARNESS_TESTS
from tests.harnesses.run import read_cleanly, responses

from moraine.harness_api.model import EventType, TokenUsage

WORKSPACES = HARNESS_TESTS / "posit_assistant/home/.posit/assistant/workspaces"
MAIN, SUB = sorted(WORKSPACES.rglob("conversation.json"), key=lambda p: len(p.parts))


def test_a_conversation_reads_with_workspace_path_model_usage_and_linked_results() -> None:
    info, events = read_cleanly("posit-assistant", MAIN)
    assert info.title == "Monthly rainfall summary" and info.cwd == "/home/dev/rainfall"
    assert info.model == "claude-sonnet-4-6" and info.parent_session is None
    assert [e.type for e in events[:3]] == [EventType.USER_INPUT, EventType.REASONING, EventType.TOOL_CALL]
    assert events[1].usage == TokenUsage(input=900, output=70, cache_read=600, cache_write=0)
    assert responses(events) == [("read", "toolu_p1", None), ("write", "toolu_p2", None)]
    assert events[3].text == "date,mm\n2026-01-03,12.5\n2026-02-10,8.1\n"


def test_an_abandoned_branch_is_a_side_chain_and_not_the_answer() -> None:
    _, events = read_cleanly("posit-assistant", MAIN)
    answers = [
        (e.text[:20], e.sidechain, e.is_final_answer)
        for e in events
        if e.type is EventType.ASSISTANT_RESPONSE
    ]
    assert answers == [("monthly_rainfall() i", False, True), ("An abandoned first a", True, False)]


def test_a_sub_agent_is_its_own_session_linked_to_its_parent() -> None:
    info, events = read_cleanly("posit-assistant", SUB)
    assert info.parent_session == MAIN.parent.name and info.cwd == "/home/dev/rainfall"
    assert info.title == "Find the rainfall readings file"
    assert events[-1].model == "claude-haiku-4-5" and events[-1].is_final_answer
