"""Touch extraction from Codex and Claude Code style tool calls."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fixtures.attention.layout import Layout, build_layout

from moraine.attention.extract import PREVIEW_CHARS, TOUCH_COLUMNS, Touch, TouchContext, extract_touches
from moraine.attention.project import ProjectResolver
from moraine.harness_api.model import Event, EventType

WHEN = datetime(2026, 6, 1, 12, 0, 0, 125000, tzinfo=UTC)


@pytest.fixture(scope="module")
def layout(tmp_path_factory: pytest.TempPathFactory) -> Layout:
    return build_layout(tmp_path_factory.mktemp("layout"))


def call(tool: str, arguments: Any, cwd: Path | str | None, **extra: Any) -> Event:
    return Event(
        session="s1",
        type=EventType.TOOL_CALL,
        tool_name=tool,
        arguments=arguments,
        cwd=None if cwd is None else str(cwd),
        timestamp=WHEN,
        **extra,
    )


def touches(event: Event, cwd: str | None = None) -> list[Touch]:
    ctx = TouchContext(7, 3, 2, "codex", "codex", timestamp=WHEN, cwd=cwd, projects=ProjectResolver())
    return extract_touches(event, ctx)


def summary(found: list[Touch]) -> list[tuple[str, str | None, str]]:
    return [(t.tail, t.worktree_root, t.match_kind) for t in found]


def test_claude_code_structured_path_is_a_path_suffix_touch(layout: Layout) -> None:
    event = call("Edit", {"file_path": str(layout.agent / "src/app.py"), "old_string": "a"}, layout.agent)
    [touch] = touches(event)
    assert (touch.tail, touch.worktree_root, touch.match_kind) == (
        "src/app.py",
        str(layout.agent),
        "path_suffix",
    )
    assert (touch.session_key, touch.seq, touch.turn_seq, touch.timestamp) == (7, 3, 2, WHEN)
    assert (touch.tool_name, touch.harness, touch.source) == ("Edit", "codex", "codex")
    assert touch.project_id == ProjectResolver().project_of(str(layout.repo))


def test_codex_shell_argv_operands_resolve_against_workdir(layout: Layout) -> None:
    arguments = json.dumps(
        {"command": ["bash", "-lc", "sed -n '1,40p' src/app.py"], "workdir": str(layout.linked)}
    )
    assert summary(touches(call("shell", arguments, layout.repo))) == [
        ("src/app.py", str(layout.linked), "shell_path")
    ]


def test_codex_exec_command_cmd_string_with_relative_workdir(layout: Layout) -> None:
    event = call("exec_command", {"cmd": "cat app.py", "workdir": "src"}, layout.repo)
    assert summary(touches(event)) == [("src/app.py", str(layout.repo), "shell_path")]


def test_codex_apply_patch_custom_tool_input_names_every_file(layout: Layout) -> None:
    patch = "*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n*** Add File: src/new.py\n+x\n*** End Patch\n"
    found = touches(call("apply_patch", patch, layout.linked))
    assert summary(found) == [
        ("src/app.py", str(layout.linked), "patch_path"),
        ("src/new.py", str(layout.linked), "patch_path"),
    ]
    assert found[0].action_preview.startswith("*** Begin Patch *** Update File: src/app.py")


def test_apply_patch_through_a_shell_here_document_is_found_once(layout: Layout) -> None:
    cmd = "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n*** End Patch\nEOF"
    assert summary(touches(call("exec_command", {"cmd": cmd}, layout.repo))) == [
        ("src/app.py", str(layout.repo), "patch_path")
    ]


def test_nested_and_array_path_keys_are_all_found(layout: Layout) -> None:
    arguments = {
        "edits": [{"target_file": "src/app.py"}, {"relativeWorkspacePath": "README.md"}],
        "options": {"filePaths": ["src/a.py", "src/b.py"], "notebook_path": "nb/x.ipynb"},
    }
    assert [t.tail for t in touches(call("MultiEdit", arguments, layout.repo))] == [
        "src/app.py",
        "README.md",
        "src/a.py",
        "src/b.py",
        "nb/x.ipynb",
    ]


def test_urls_prose_and_flag_globs_are_not_touches(layout: Layout) -> None:
    assert touches(call("WebFetch", {"path": "https://example.com/src/app.py"}, layout.repo)) == []
    assert touches(call("Task", {"description": "please edit src/app.py and rerun"}, layout.repo)) == []
    assert touches(call("Bash", {"command": "rg --file=*.py needle"}, layout.repo)) == []
    assert touches(call("Bash", {"command": "curl https://example.com/src/app.py"}, layout.repo)) == []
    assert touches(call("Bash", {"command": "echo remember src/app.py"}, layout.repo)) == []


def test_directories_are_not_file_touches(layout: Layout) -> None:
    assert touches(call("Grep", {"pattern": "main", "path": str(layout.repo / "src")}, layout.repo)) == []


def test_moraine_own_calls_are_never_touches(layout: Layout) -> None:
    assert touches(call("mcp__moraine__file_attention", {"path": "src/app.py"}, layout.repo)) == []
    assert touches(call("file_attention", {"path": "src/app.py"}, layout.repo)) == []
    assert touches(call("anything", {"path": "src/app.py"}, layout.repo, is_moraine_tool=True)) == []


def test_only_tool_calls_are_touches(layout: Layout) -> None:
    for kind in (EventType.TOOL_RESPONSE, EventType.USER_INPUT, EventType.ASSISTANT_RESPONSE):
        event = Event(session="s", type=kind, arguments={"path": "src/app.py"}, cwd=str(layout.repo))
        assert touches(event) == []


def test_a_file_named_twice_is_one_touch_with_the_structured_kind(layout: Layout) -> None:
    event = call("Bash", {"command": "cat src/app.py", "path": "src/app.py"}, layout.repo)
    assert summary(touches(event)) == [("src/app.py", str(layout.repo), "path_suffix")]


def test_session_cwd_is_used_when_the_event_has_none(layout: Layout) -> None:
    event = call("Read", {"file_path": "src/app.py"}, None)
    assert summary(touches(event, cwd=str(layout.plain))) == [
        ("src/app.py", str(layout.plain), "path_suffix")
    ]


def test_relative_path_without_any_cwd_has_an_unknown_root() -> None:
    [touch] = touches(call("Read", {"file_path": "src/app.py"}, None))
    assert (touch.tail, touch.worktree_root, touch.project_id) == ("src/app.py", None, "")


def test_action_preview_is_capped_with_an_ellipsis(layout: Layout) -> None:
    [touch] = touches(call("Write", {"file_path": "src/app.py", "content": "x" * 500}, layout.repo))
    assert len(touch.action_preview) == PREVIEW_CHARS + 1
    assert touch.action_preview.endswith("…")


def test_missing_timestamp_stays_null() -> None:
    event = call("Read", {"file_path": "/srv/a.py"}, None)
    ctx = TouchContext(1, 1, 1, "codex", "codex", timestamp=None)
    assert extract_touches(event, ctx)[0].timestamp is None


def test_touch_is_a_mapping_of_the_touches_columns(layout: Layout) -> None:
    [touch] = touches(call("Read", {"file_path": "src/app.py"}, layout.repo))
    row = dict(touch)
    assert tuple(row) == TOUCH_COLUMNS
    assert tuple(row.values()) == touch.as_row()


def test_the_pipeline_call_returns_complete_rows(layout: Layout) -> None:
    # The pipeline's positional context: keys, turn, harness, source, stored time, session cwd, stream, offset.
    ctx = TouchContext(9, 4, 1, "claude-code", "claude", WHEN, str(layout.repo), 5, 100)
    [row] = extract_touches(call("Read", {"file_path": "src/app.py"}, None), ctx)
    assert {
        k: row[k] for k in ("tail", "session_key", "seq", "turn_seq", "source", "stream_id", "timestamp")
    } == {
        "tail": "src/app.py",
        "session_key": 9,
        "seq": 4,
        "turn_seq": 1,
        "source": "claude",
        "stream_id": 5,
        "timestamp": WHEN,
    }
    assert set(row) == set(TOUCH_COLUMNS)


def test_garbage_arguments_never_raise(layout: Layout) -> None:
    deep: Any = {"path": "a/b.py"}
    for _ in range(50):
        deep = {"x": [deep]}
    for arguments in (None, 3, "not json {", "{bad json", [1, None, {"file": 5}], deep, {"command": [1, 2]}):
        assert isinstance(touches(call("Tool", arguments, layout.repo)), list)


def test_patch_markers_outside_a_patch_envelope_are_not_touches(layout: Layout) -> None:
    doc = "Patches look like:\n*** Update File: src/app.py\n"
    found = touches(call("Write", {"file_path": "docs/patches.md", "content": doc}, layout.repo))
    assert [t.tail for t in found] == ["docs/patches.md"]


def test_gemini_style_absolute_path_key_is_structured(layout: Layout) -> None:
    event = call("read_file", {"absolute_path": str(layout.repo / "src/app.py")}, layout.repo)
    assert summary(touches(event)) == [("src/app.py", str(layout.repo), "path_suffix")]
