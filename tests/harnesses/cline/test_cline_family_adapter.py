"""The Cline family (Cline, Roo Code, Kilo's legacy extension): task folders read by UI message, normalized."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from tests.harnesses.run import emitted, events, normalize, read_items
from moraine.harnesses._shared.cline_family.reader import ClineTaskReader
from moraine.harness_api.model import EventType, IngestError, RawRecord, SessionInfo, TokenUsage

HARNESSES = Path(__file__).resolve().parents[1]


def _task(pkg: str) -> Path:
    return next((HARNESSES / pkg / "home").rglob("ui_messages.json"))


def _infos(items: list[object]) -> list[SessionInfo]:
    return [i for i in items if isinstance(i, SessionInfo)]


def test_a_cline_task_becomes_two_turns_with_tools_paired_by_message_index_and_usage() -> None:
    items = emitted("cline", "cline_task", _task("cline"))
    assert not [i for i in items if isinstance(i, IngestError)]
    assert _infos(items)[-1].cwd == "/home/dev/nestcam"
    assert _infos(items)[-1].model == "claude-sonnet-4-5-20250929"
    prompts = events(items, type=EventType.USER_INPUT)
    assert [p.starts_turn for p in prompts] == [True, True]
    assert "clinekestrelkeyword" in prompts[0].text
    calls = events(items, type=EventType.TOOL_CALL)
    assert [(c.tool_name, c.tool_call_id) for c in calls] == [
        ("readFile", "ui-4"),
        ("editedExistingFile", "ui-6"),
        ("execute_command", "ui-9"),
    ]
    assert calls[1].arguments["path"] == "uploader/cli.py" and calls[1].cwd == "/home/dev/nestcam"
    responses = events(items, type=EventType.TOOL_RESPONSE)
    assert [r.tool_call_id for r in responses] == ["ui-4", "ui-6", "ui-9"]
    assert responses[1].text == "The content was successfully saved to uploader/cli.py."
    assert "4 passed" in responses[2].text
    [thought] = events(items, type=EventType.REASONING)
    assert thought.usage == TokenUsage(input=12, output=188, cache_read=0, cache_write=10234)
    finals = [e for e in events(items, type=EventType.ASSISTANT_RESPONSE) if e.is_final_answer]
    assert [f.text[:5] for f in finals] == ["Added", "Yes: "]


def test_roo_code_reads_its_history_item_and_the_model_from_the_environment_details() -> None:
    items = emitted("roo-code", "cline_task", _task("roo_code"))
    first = _infos(items)[0]
    assert (first.session, first.cwd) == ("0f6c2b8e-93d1-4a57-b2e4-7c1d9a6e3f08", "/home/dev/owl-census")
    assert first.started_at is not None
    assert _infos(items)[-1].model == "anthropic/claude-sonnet-4.5"
    [edit] = events(items, type=EventType.TOOL_CALL, tool_name="appliedDiff")
    [result] = events(items, type=EventType.TOOL_RESPONSE, tool_call_id=edit.tool_call_id)
    assert "<operation>modified</operation>" in result.text


def test_a_kilo_follow_up_question_ends_the_turn_as_its_answer() -> None:
    items = emitted("kilo", "cline_task", _task("kilo"))
    answers = events(items, type=EventType.ASSISTANT_RESPONSE)
    assert [a.is_final_answer for a in answers] == [False, True]
    assert answers[-1].text.startswith("Should the midnight re-tare")
    assert _infos(items)[-1].model == "z-ai/glm-4.6"


def test_kilo_reads_its_opencode_store_with_the_same_adapter(tmp_path: Path) -> None:
    dump = next((HARNESSES / "kilo" / "home").rglob("kilo.db.sql"))
    database = tmp_path / "kilo.db"
    with sqlite3.connect(database) as connection:
        connection.executescript(dump.read_text(encoding="utf-8"))
    items = emitted("kilo", "opencode_sqlite", database)
    assert [i.title for i in _infos(items)] == ["Finch band registry dedupe"]
    [edit] = events(items, type=EventType.TOOL_CALL, tool_name="edit")
    assert edit.arguments["filePath"] == "/home/dev/finch-bander/registry.py"
    assert any(e.is_final_answer for e in events(items, type=EventType.ASSISTANT_RESPONSE))
    usages = [e.usage for e in events(items) if e.usage is not None]
    assert usages == [
        TokenUsage(input=5210, output=240, cache_read=11800, cache_write=0, reasoning=0),
        TokenUsage(input=5480, output=61, cache_read=12040, cache_write=0, reasoning=0),
    ]


def _write(path: Path, messages: list[object]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(messages), encoding="utf-8")
    return path


def test_the_reader_stops_before_a_streaming_message_and_a_request_in_flight(tmp_path: Path) -> None:
    ui = _write(
        tmp_path / "tasks" / "t1" / "ui_messages.json",
        [
            {"ts": 1, "type": "say", "say": "text", "text": "task"},
            {"ts": 2, "type": "say", "say": "api_req_started", "text": json.dumps({"request": "r"})},
            {"ts": 3, "type": "say", "say": "text", "text": "partial answ", "partial": True},
        ],
    )
    writing = ClineTaskReader()
    assert read_items(writing, ui)[1] == 1  # the request's usage is not written yet
    assert writing.holding(ui)  # so the pipeline reads the file again on a later pass
    idle = ClineTaskReader(clock=lambda: os.stat(ui).st_mtime + 3600)
    assert read_items(idle, ui)[1] == 2  # never past a partial message
    records, _ = read_items(idle, ui, offset=1)
    assert [r.data["message"]["ts"] for r in records if isinstance(r, RawRecord)] == [2]
    assert records[0].data["task"]["id"] == "t1"  # type: ignore[union-attr]


def test_a_file_that_is_not_a_message_array_is_reported_once(tmp_path: Path) -> None:
    ui = tmp_path / "tasks" / "t2" / "ui_messages.json"
    ui.parent.mkdir(parents=True)
    ui.write_text('{"not": "an array"}')
    reader = ClineTaskReader()
    [error] = read_items(reader, ui)[0]
    assert isinstance(error, IngestError) and error.reason == "malformed_session_file"
    assert read_items(reader, ui)[0] == []


@pytest.mark.parametrize("harness", ["cline", "roo-code", "kilo"])
def test_bad_records_become_ingest_errors_for_every_harness_of_the_family(harness: str) -> None:
    task = {"id": "t3", "history": {}, "model": None}
    bad = [
        RawRecord({"record": "cline_message", "task": task, "index": 1, "message": "not an object"}, 1, 0),
        RawRecord(
            {"record": "cline_message", "task": task, "index": 2, "message": {"type": "say", "say": "novel"}},
            2,
            1,
        ),
        RawRecord({"record": "something else"}, 3, 2),
        RawRecord(42, 4, 3),
    ]
    out = normalize(harness, bad, Path("ui_messages.json"))
    assert [i.reason for i in out if isinstance(i, IngestError)] == [
        "malformed_record",
        "unknown_record",
        "unknown_record",
        "unknown_record",
    ]


def _api_history_task(root: Path, with_ui_messages: bool = False) -> Path:
    """A task folder as Cline writes it, holding the API history (native tool blocks) and maybe the UI messages."""
    folder = root / "globalStorage" / "saoudrizwan.claude-dev" / "tasks" / "1733300000000"
    folder.mkdir(parents=True)
    environment = "<environment_details>\n# Current Working Directory (/home/dev/kiln) Files\nkiln.py\n</environment_details>"
    history = [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "<task>\nWhy does the kiln overshoot? clineapikeyword\n</task>"},
                {"type": "text", "text": environment},
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Read the controller first.", "signature": "sig"},
                {"type": "text", "text": "Reading the controller."},
                {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "kiln.py"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "GAIN = 4.0"},
                {"type": "text", "text": environment},
            ],
        },
        {"role": "assistant", "content": [{"type": "text", "text": "The gain of 4.0 is too high."}]},
    ]
    (folder / "api_conversation_history.json").write_text(json.dumps(history), encoding="utf-8")
    (folder / "task_metadata.json").write_text(
        json.dumps({"model_usage": [{"model_id": "claude-sonnet-4-5"}]}), encoding="utf-8"
    )
    if with_ui_messages:
        (folder / "ui_messages.json").write_text("[]", encoding="utf-8")
    return folder / "api_conversation_history.json"


def test_a_task_folder_without_ui_messages_is_read_from_its_api_history(tmp_path: Path) -> None:
    # Issue 44: such a folder was not read at all; the API history keeps tool calls and results verbatim.
    items = emitted("cline", "cline_api_history", _api_history_task(tmp_path), "cline-api")
    assert not [i for i in items if isinstance(i, IngestError)]
    found = events(items)
    assert [(e.type.value, e.text) for e in found if e.type is not EventType.TOOL_CALL] == [
        ("user_input", "Why does the kiln overshoot? clineapikeyword"),
        ("system", found[1].text),
        ("reasoning", "Read the controller first."),
        ("assistant_response", "Reading the controller."),
        ("tool_response", "GAIN = 4.0"),
        ("system", found[1].text),
        ("assistant_response", "The gain of 4.0 is too high."),
    ]
    assert found[1].text.startswith("<environment_details>")
    [call] = events(items, EventType.TOOL_CALL)
    assert (call.tool_name, call.tool_call_id, call.arguments) == (
        "read_file",
        "toolu_1",
        {"path": "kiln.py"},
    )
    assert events(items, EventType.TOOL_RESPONSE)[0].tool_name == "read_file"
    assert [e.starts_turn for e in found].count(True) == 1 and found[-1].is_final_answer
    assert {e.session for e in found} == {"1733300000000"}
    assert found[0].timestamp is not None and found[0].timestamp.year == 2024
    assert _infos(items)[0].model == "claude-sonnet-4-5"


def test_the_api_history_is_left_alone_where_the_ui_messages_are_read(tmp_path: Path) -> None:
    items = emitted(
        "cline", "cline_api_history", _api_history_task(tmp_path, with_ui_messages=True), "cline-api"
    )
    assert items == []
