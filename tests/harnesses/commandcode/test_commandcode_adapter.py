"""Command Code: AI SDK message lines with a renamed title from the sidecar; prompt history is not a transcript."""

from __future__ import annotations

from tests.harnesses.home import HARNESS_TESTS
from tests.harnesses.run import normalized, read_cleanly, responses

from moraine.harness_api.model import EventType

FOLDER = next((HARNESS_TESTS / "commandcode/home/.commandcode/projects").iterdir())
TRANSCRIPT = FOLDER / "4d5e6f70-8192-4a3b-bc4d-5e6f708192a3.jsonl"


def test_messages_calls_typed_outputs_and_the_sidecar_title() -> None:
    info, said = read_cleanly("commandcode", TRANSCRIPT)
    assert info.title == "Tide chart legend placement" and info.cwd == "/home/dev/tidechart"
    assert [e.type for e in said[:3]] == [EventType.USER_INPUT, EventType.REASONING, EventType.TOOL_CALL]
    assert responses(said) == [("edit_file", "tc_1", None), ("bash", "tc_2", None)]
    assert said[3].text == "1 replacement in src/chart.ts"
    assert said[-1].is_final_answer and said[0].cwd == "/home/dev/tidechart"


def test_the_prompt_history_file_yields_nothing() -> None:
    assert normalized("commandcode", FOLDER / "4d5e6f70-8192-4a3b-bc4d-5e6f708192a3.prompts.jsonl") == []
