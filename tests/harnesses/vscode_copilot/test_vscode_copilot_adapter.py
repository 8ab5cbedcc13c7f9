"""VS Code Copilot chat: operation logs and snapshots read by request, normalized into turns, tools and usage."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.harnesses.home import build_home
from tests.harnesses.run import emitted, events, normalize, read_items
from moraine.config import SourceConfig

from moraine.harnesses.vscode_copilot.oplog import replay
from moraine.harnesses.vscode_copilot.reader import VscodeChatReader
from moraine.harness_api.model import EventType, IngestError, RawRecord, SessionInfo, TerminalKind, TokenUsage
from moraine.ingest.pipeline import Ingestor
from moraine.store.client import Store

HOME = Path(__file__).resolve().parent / "home"
WORKSPACES = HOME / ".config/Code/User/workspaceStorage"
LOG = next(WORKSPACES.glob("*/chatSessions/*.jsonl"))
SNAPSHOT = next(WORKSPACES.glob("*/chatSessions/*.json"))


def _write_log(path: Path, lines: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_the_operation_log_replays_sets_pushes_truncating_pushes_and_deletes() -> None:
    lines = [
        {"kind": 0, "v": {"items": ["a", "old", "stale"], "gone": 1, "nested": {"x": 1}}},
        {"kind": 2, "k": ["items"], "v": ["b"], "i": 1},
        {"kind": 1, "k": ["nested", "x"], "v": 2},
        {"kind": 1, "k": ["items", 0], "v": "A"},
        {"kind": 3, "k": ["gone"]},
        {"kind": 1, "k": ["missing", "deep"], "v": 3},
    ]
    state, skipped = replay([json.dumps(line).encode() for line in lines] + [b"{not json"])
    assert state == {"items": ["A", "b"], "nested": {"x": 2}}
    assert skipped == 2


def test_a_session_log_becomes_turns_with_reasoning_tools_an_edit_and_final_answers() -> None:
    items = emitted("vscode-copilot", "vscode_chat", LOG)
    [info] = [i for i in items if isinstance(i, SessionInfo)]
    assert (info.session, info.title, info.cwd, info.model) == (
        "3b9f6a2e-1c4d-4e8a-9f70-5d2c8b1e6a43",
        "Heron counter double counts",
        "/home/dev/heron-tracker",
        "claude-sonnet-4.5",
    )
    prompts = events(items, type=EventType.USER_INPUT)
    assert [p.starts_turn for p in prompts] == [True, True]
    assert "vscodeheronkeyword" in prompts[0].text
    assert len(events(items, type=EventType.REASONING)) == 1
    calls = events(items, type=EventType.TOOL_CALL)
    assert [c.tool_name for c in calls] == ["copilot_readFile", "copilot_replaceString", "run_in_terminal"]
    assert calls[1].arguments["paths"] == ["/home/dev/heron-tracker/src/tracker.py"]
    assert calls[2].arguments["command"] == "python -m pytest tests/test_tracker.py -q"
    responses = events(items, type=EventType.TOOL_RESPONSE)
    assert [r.tool_call_id for r in responses] == [c.tool_call_id for c in calls]
    assert responses[2].text == "7 passed in 0.41s"
    finals = [e for e in events(items, type=EventType.ASSISTANT_RESPONSE) if e.is_final_answer]
    assert len(finals) == 2 and all(f.terminal_kind is TerminalKind.FINAL_RESPONSE for f in finals)
    assert finals[0].text.startswith("Fixed:") and finals[0].usage == TokenUsage(input=18342, output=611)
    assert not [i for i in items if isinstance(i, IngestError)]


def test_an_old_snapshot_reads_like_a_log_with_its_workspace_and_the_session_index_title(
    tmp_path: Path,
) -> None:
    home = build_home(tmp_path, ["vscode_copilot"])
    snapshot = next(home.rglob("chatSessions/*.json"))
    items = emitted("vscode-copilot", "vscode_chat", snapshot)
    [answer] = events(items, type=EventType.ASSISTANT_RESPONSE)
    assert answer.is_final_answer and answer.model == "gpt-4o"
    [info] = [i for i in items if isinstance(i, SessionInfo)]
    assert (info.cwd, info.title) == ("/home/dev/tide-clock", "Tide clock lunar offset constant")
    assert [
        i.title for i in emitted("vscode-copilot", "vscode_chat", SNAPSHOT) if isinstance(i, SessionInfo)
    ] == [
        None  # without the state database beside it: no title
    ]


def test_the_last_request_waits_until_it_has_a_result_and_reading_resumes_at_the_position(
    tmp_path: Path,
) -> None:
    log = _write_log(
        tmp_path / "s1.jsonl",
        [
            {"kind": 0, "v": {"version": 3, "sessionId": "s1", "requests": []}},
            {
                "kind": 2,
                "k": ["requests"],
                "v": [{"message": {"text": "first"}, "response": [{"value": "one"}]}],
            },
        ],
    )
    reader = VscodeChatReader()
    assert read_items(reader, log) == ([], 0)
    with log.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"kind": 1, "k": ["requests", 0, "result"], "v": {}}) + "\n")
    records, end = read_items(reader, log)
    assert end == 1 and len(records) == 1
    assert read_items(reader, log, offset=end) == ([], 1)
    idle = VscodeChatReader(clock=lambda: os.stat(log).st_mtime + 3600)
    with log.open("a", encoding="utf-8") as handle:
        handle.write(
            json.dumps({"kind": 2, "k": ["requests"], "v": [{"message": {"text": "abandoned"}}]}) + "\n"
        )
    assert read_items(reader, log, offset=1)[1] == 1
    assert read_items(idle, log, offset=1)[1] == 2


def test_a_snapshot_with_a_log_beside_it_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "s2.json").write_text(json.dumps({"sessionId": "s2", "requests": [{"result": {}}]}))
    assert read_items(VscodeChatReader(), tmp_path / "s2.json")[1] == 1
    _write_log(tmp_path / "s2.jsonl", [{"kind": 0, "v": {"sessionId": "s2", "requests": []}}])
    assert read_items(VscodeChatReader(), tmp_path / "s2.json") == ([], 0)


def test_bad_input_is_reported_not_raised_and_an_unknown_version_once_per_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{ half a session")
    reader = VscodeChatReader()
    [error] = read_items(reader, broken)[0]
    assert isinstance(error, IngestError) and error.reason == "malformed_session_file"
    assert read_items(reader, broken)[0] == []  # the same version of the file is reported once
    future = tmp_path / "future.json"
    future.write_text(
        json.dumps({"version": 9, "sessionId": "f", "requests": [{"result": {}}, {"result": {}}]})
    )
    records = read_items(reader, future)[0]
    assert [r.reason for r in records if isinstance(r, IngestError)] == ["unknown_format_version"]
    assert read_items(reader, future)[0] and not [
        r for r in read_items(reader, future)[0] if isinstance(r, IngestError)
    ]
    bad = [
        RawRecord({"record": "vscode_chat_request", "session": {"sessionId": "x"}, "request": "nope"}, 1, 0),
        RawRecord({"record": "something else"}, 2, 1),
        RawRecord(["not", "an", "object"], 3, 2),
    ]
    assert [type(i).__name__ for i in normalize("vscode-copilot", bad, future)] == ["IngestError"] * 3


def test_a_request_held_back_is_ingested_on_a_later_pass_without_the_file_changing(
    tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = _write_log(
        tmp_path / "held.jsonl",
        [
            {"kind": 0, "v": {"version": 3, "sessionId": "held", "requests": []}},
            {"kind": 2, "k": ["requests"], "v": [{"message": {"text": "vscodeheldkeyword"}, "response": []}]},
        ],
    )
    source = SourceConfig(
        "vscode-copilot", "vscode-copilot", str(tmp_path / "*.jsonl"), str(tmp_path), "vscode_chat"
    )
    ingestor = Ingestor(store)
    assert ingestor.run([source], {source.name: [log]}).events == 0  # the request is still being answered
    monkeypatch.setattr(VscodeChatReader, "default_settle_seconds", 0.0)  # ... until the file is left alone
    again = ingestor.run([source], {source.name: [log]})
    assert (again.unchanged, again.events) == (0, 1)
