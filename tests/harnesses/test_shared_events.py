"""The shared message helpers: streamed pieces of one message joined, the answer of a message calling no tool."""

from __future__ import annotations

from moraine.harnesses._shared.events import RecordEvents, end_message, join_fragments
from moraine.harness_api.model import Event, EventType


def _message() -> RecordEvents:
    return RecordEvents("s1", None)


def test_consecutive_pieces_of_one_kind_are_joined_as_written_and_other_kinds_split_the_runs() -> None:
    base = _message()
    pieces = [
        base.reasoning("Let", "m1"),
        base.reasoning(" me", "m1"),
        base.reasoning(" look", "m1"),
        base.tool_call("shell", "c1", {"command": "ls"}, "m1"),
        base.reasoning("Found", "m1"),
        base.reasoning(" it", "m1"),
        base.answer("Done", "m1"),
        base.answer(".", "m1"),
    ]
    joined = join_fragments(pieces)
    assert [(e.type, e.text) for e in joined] == [
        (EventType.REASONING, "Let me look"),
        (EventType.TOOL_CALL, pieces[3].text),
        (EventType.REASONING, "Found it"),
        (EventType.ASSISTANT_RESPONSE, "Done."),
    ]


def test_opaque_reasoning_and_another_model_are_not_joined_to_plain_pieces() -> None:
    base = _message()
    pieces = [
        base.reasoning("plain", "m1"),
        base.reasoning("b64", "m1", encrypted=True),
        base.reasoning("x", "m2"),
    ]
    assert len(join_fragments(pieces)) == 3


def test_a_message_streamed_in_pieces_ends_the_turn_with_one_joined_answer() -> None:
    base = _message()
    closed = end_message([base.reasoning("Hm", "m1"), base.answer("All", "m1"), base.answer(" set.", "m1")])
    answers = [e for e in closed if isinstance(e, Event) and e.type is EventType.ASSISTANT_RESPONSE]
    assert [(a.text, a.is_final_answer, a.terminal) for a in answers] == [("All set.", True, True)]
    assert len(closed) == 2
