"""``moraine hook``'s process: the agents' output shapes, a hard deadline, nothing printed on bad input, exit 0."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from moraine.hooks.run import format_error, render

MORAINE = Path(sys.executable).with_name("moraine")


def test_json_output_is_the_hook_specific_output_the_agents_read() -> None:
    out = json.loads(render("earlier: a fix", "json", "BeforeAgent"))
    assert out == {
        "hookSpecificOutput": {"hookEventName": "BeforeAgent", "additionalContext": "earlier: a fix"}
    }


def test_text_output_is_the_context_alone() -> None:
    assert render("earlier: a fix", "text", "UserPromptSubmit") == b"earlier: a fix\n"


def test_an_object_format_gets_the_context_in_place_of_its_null() -> None:
    out = json.loads(render('earlier: "a fix"', '{"cancel":false,"contextModification":null}', "TaskStart"))
    assert out == {"cancel": False, "contextModification": 'earlier: "a fix"'}


@pytest.mark.parametrize("value", ["json", "text", '{"additional_context":null}', '{"a":1,"b":null}'])
def test_formats_the_hook_clients_use_are_accepted(value: str) -> None:
    assert format_error(value) is None


@pytest.mark.parametrize("value", ["xml", "{}", '{"a":null,"b":null}', '{"a":1}', "[null]", "{oops", "null"])
def test_other_formats_are_refused_with_the_reason(value: str) -> None:
    assert "--format must be" in (format_error(value) or "")


@pytest.fixture
def home() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="mhk", dir="/tmp") as raw:  # AF_UNIX paths are short
        path = Path(raw)
        (path / "run").mkdir(mode=0o700)
        yield path


def _hook(home: Path, stdin: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "MORAINE_HOME": str(home), "MORAINE_CONFIG": str(home / "config.toml")}
    return subprocess.run(
        [str(MORAINE), "hook", *args], input=stdin, env=env, capture_output=True, timeout=60, check=False
    )


def test_a_daemon_that_never_answers_gets_nothing_printed_once_the_deadline_passes(home: Path) -> None:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(home / "run" / "daemon.sock"))
    listener.listen(4)  # accepts the connection (the backlog) and never answers: the hook waits on its read
    state = {"pid": os.getpid(), "port": 1, "socket": str(home / "run" / "daemon.sock"), "ready": True}
    (home / "run" / "daemon.json").write_text(json.dumps(state | {"version": "0", "started_at": "x"}))
    (home / "config.toml").write_text("[hooks]\ndeadline_ms = 300\n")
    try:
        prompt = json.dumps({"session_id": "s", "cwd": "/tmp", "prompt": "the retry worker"}).encode()
        done = _hook(home, prompt, "prompt", "--harness", "claude-code")
    finally:
        listener.close()
    assert (done.returncode, done.stdout) == (0, b"")


@pytest.mark.parametrize(
    ("stdin", "args", "said"),
    [
        (b"{not json", ("prompt",), b"not JSON"),
        (b"[1, 2]", ("prompt",), b"not a JSON object"),
        (b"{}", ("recall",), b"usage: moraine hook"),
        (b"{}", ("prompt", "--format", "xml"), b"--format must be"),
        (b"{}", ("prompt", "--format"), b"--format needs a value"),
    ],
)
def test_bad_input_prints_nothing_exits_0_and_says_why_on_stderr(
    home: Path, stdin: bytes, args: tuple[str, ...], said: bytes
) -> None:
    done = _hook(home, stdin, *args)
    assert (done.returncode, done.stdout) == (0, b"")
    assert said in done.stderr


def test_the_hook_imports_the_standard_library_only(home: Path) -> None:
    # Input that is refused before the daemon is looked for: no daemon is started for this probe.
    probe = (
        "import sys\nsys.argv = ['moraine', 'hook', 'prompt']\n"
        "from moraine.entry import run\nrun()\nprint('\\n'.join(sorted(sys.modules)))"
    )
    env = {**os.environ, "MORAINE_HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-c", probe], input="{not json", capture_output=True, text=True, env=env, timeout=60
    )
    assert "not JSON" in done.stderr
    loaded = done.stdout.splitlines()
    assert "moraine.hooks.run" in loaded
    assert [
        m
        for m in loaded
        if m.startswith(("click", "httpx", "anyio", "moraine."))
        and m not in {"moraine.entry", "moraine.hooks", "moraine.hooks.run"}
    ] == []
