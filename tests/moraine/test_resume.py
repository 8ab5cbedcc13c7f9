"""resume_command: the harness's own resume command for a session, quoted for a shell, or None."""

from __future__ import annotations

import shlex

import pytest

from moraine.ids import could_be_native_id
from moraine.harnesses import harnesses
from moraine.resume import resume_command

UUID = "7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d"


@pytest.mark.parametrize(
    ("harness", "native", "expected"),
    [
        ("claude-code", UUID, f"claude --resume {UUID}"),
        ("codex", UUID, f"codex resume {UUID}"),
        ("kimi-cli", UUID, f"kimi --session {UUID}"),
        ("qwen-code", UUID, f"qwen --resume {UUID}"),
        ("opencode", "ses_01J9Q3N7W6", "opencode --session ses_01J9Q3N7W6"),
    ],
)
def test_harnesses_with_a_resume_command_get_it(harness: str, native: str, expected: str) -> None:
    assert resume_command(harness, native) == expected


def test_the_working_directory_comes_first_and_everything_is_shell_quoted() -> None:
    command = resume_command("claude-code", UUID, "/home/dev/my repo")
    assert command == f"cd '/home/dev/my repo' && claude --resume {UUID}"
    hostile = resume_command("codex", "id;rm -rf ~", "$(touch x)")
    assert hostile is not None
    assert shlex.split(hostile) == ["cd", "$(touch x)", "&&", "codex", "resume", "id;rm -rf ~"]


@pytest.mark.parametrize(
    ("harness", "native"),
    [
        ("pi-coding-agent", UUID),  # resumes by file path, not by ID
        ("cursor", UUID),
        ("claude-code", f"{UUID}:agent-1"),  # a sub-agent is resumed through its parent
        ("kimi-cli", f"{UUID}:worker"),
        ("codex", None),
        ("codex", "  "),
    ],
)
def test_sessions_without_a_resume_command_get_none(harness: str, native: str | None) -> None:
    assert resume_command(harness, native) is None


def test_every_harness_with_a_resume_command_has_a_location_moraine_indexes() -> None:
    resumable = [h for h in harnesses().values() if h.resume is not None]
    assert {"claude-code", "codex", "kimi-cli", "opencode", "qwen-code"} <= {h.name for h in resumable}
    assert all(h.locations or h.importer for h in resumable)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (UUID, True),
        ("ses_01J9Q3N7W6", True),
        (f"  {UUID}  ", True),
        ("ses-migration", True),
        ("session:ses_0BAD", False),  # a Moraine kind prefix: malformed, never looked up
        ("event:42", False),
        ("two words 1", False),
        ("9" * 257, False),
    ],
)
def test_single_tokens_without_a_moraine_prefix_could_be_harness_ids(text: str, expected: bool) -> None:
    assert could_be_native_id(text) is expected
