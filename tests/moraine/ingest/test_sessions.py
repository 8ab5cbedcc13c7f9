"""Turn aggregates: the final response is the last final-answer text the agent did not work past."""

from __future__ import annotations

from moraine.harness_api.model import Event, EventType, TerminalKind
from moraine.ingest.sessions import TurnState


def _fold(*events: Event) -> TurnState:
    turn = TurnState(turn_seq=1)
    for seq, event in enumerate(events, start=1):
        turn.add(seq, event, None)
    return turn


def test_a_tool_call_after_a_final_answer_candidate_withdraws_it() -> None:
    turn = _fold(
        Event("s", EventType.USER_INPUT, "fix it", starts_turn=True),
        Event("s", EventType.ASSISTANT_RESPONSE, "Checking refunds.", is_final_answer=True),
        Event("s", EventType.TOOL_CALL, "Bash(...)", tool_name="Bash"),
    )
    assert (turn.final_seq, turn.final_text, turn.completed) == (None, "", False)


def test_the_last_final_answer_of_a_finished_turn_is_its_final_response() -> None:
    turn = _fold(
        Event("s", EventType.USER_INPUT, "fix it", starts_turn=True),
        Event("s", EventType.ASSISTANT_RESPONSE, "Looking.", is_final_answer=True),
        Event("s", EventType.TOOL_CALL, "Bash(...)", tool_name="Bash"),
        Event(
            "s",
            EventType.ASSISTANT_RESPONSE,
            "Fixed.",
            is_final_answer=True,
            terminal=True,
            terminal_kind=TerminalKind.FINAL_RESPONSE,
        ),
    )
    assert (turn.final_seq, turn.final_text, turn.completed, turn.terminal_seq) == (4, "Fixed.", True, 4)
