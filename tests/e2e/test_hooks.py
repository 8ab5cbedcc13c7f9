"""``moraine hook`` as each agent runs it: the agent's documented hook input on stdin, a real daemon on the scope
corpus (``fixtures.scope``: Git projects alpha and beta, Codex sessions and one Claude Code session ``c1`` in
alpha), and the output checked against what that agent's hook protocol accepts.

Inputs follow the agents' documentation: Claude Code (code.claude.com/docs/en/hooks: ``session_id``,
``transcript_path``, ``cwd``, ``permission_mode``, ``hook_event_name``, ``prompt`` for UserPromptSubmit, ``source``
for SessionStart; output ``{"hookSpecificOutput": {"hookEventName", "additionalContext"}}``) and Gemini CLI
(geminicli.com/docs/hooks/reference: ``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``,
``timestamp``, ``prompt`` for BeforeAgent; stdout must be that JSON alone) and Codex (Claude Code's wire format),
Cursor (cursor.com/docs/agent/hooks: ``conversation_id``, ``generation_id``, ``model``, ``hook_event_name``,
``cursor_version``, ``workspace_roots``, ``user_email``, ``transcript_path``, and ``session_id``,
``is_background_agent``, ``composer_mode`` for sessionStart; output ``{"additional_context"}``) and Qwen Code
(its hooks guide: Claude Code's fields plus ``timestamp``, ``submitted_prompt`` beside ``prompt``) and Cline
(docs.cline.bot Hook Reference: ``clineVersion``, ``hookName``, ``timestamp``, ``taskId``, ``workspaceRoots``,
``userId`` and ``userPromptSubmit``/``taskStart``; output ``{"cancel", "contextModification"}``, run from the
script ``moraine setup --hooks`` writes).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from daemon_support import MORAINE, DaemonHome, wait_for

from fixtures.scope.projects import ScopeHome, key_of, uuid_of
from moraine.daemon.hook_clients import hook_configs, write_hooks
from moraine.daemon.launcher import live_state
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.routes import HOOK_PATH
from moraine.ids import parse_id, session_id

PROMPT = "zebraword markera1 please read the app"


def _run(
    env: dict[str, str], payload: dict[str, Any], *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(MORAINE), "hook", *args],
        input=json.dumps(payload),
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture(scope="module")
def served(scope_home: ScopeHome) -> ScopeHome:
    """The scope home with its daemon running (a first hook starts it when no other module has)."""
    paths = DaemonPaths(scope_home.path / ".moraine")
    if live_state(paths) is None:
        _run(scope_home.env(), {"cwd": str(scope_home.work)}, "session-start")
    wait_for(lambda: live_state(paths), 120, "the daemon a hook started")
    return scope_home


def _claude(home: ScopeHome, event: str, **fields: Any) -> dict[str, Any]:
    return {
        "session_id": uuid_of("c1"),
        "transcript_path": str(home.path / ".claude" / "projects" / "x" / f"{uuid_of('c1')}.jsonl"),
        "cwd": str(home.work / "alpha"),
        "permission_mode": "default",
        "hook_event_name": event,
        **fields,
    }


def _context(done: subprocess.CompletedProcess[str], event_name: str) -> str:
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)  # the whole of stdout is one JSON document
    assert set(out) == {"hookSpecificOutput"}
    assert out["hookSpecificOutput"]["hookEventName"] == event_name
    context: str = out["hookSpecificOutput"]["additionalContext"]
    return context


def _keys(text: str, kind: str) -> set[int]:
    ids = [word.strip("[]();,") for word in text.split() if word.strip("[]();,").startswith(f"{kind}:")]
    return {parse_id(i).key for i in ids}


def test_claude_code_prompt_hook_gives_other_sessions_hits_never_its_own(served: ScopeHome) -> None:
    payload = _claude(served, "UserPromptSubmit", prompt="zebraword markerc1 markera1 please read the app")
    context = _context(_run(served.env(), payload, "prompt", "--harness", "claude-code"), "UserPromptSubmit")
    found = _keys(context, "event")
    assert found and key_of("c1") not in found  # c1 holds markerc1, but it is the prompting session
    assert key_of("a1") in found


def test_claude_code_session_start_lists_this_projects_recent_sessions(served: ScopeHome) -> None:
    payload = _claude(served, "SessionStart", source="startup")
    context = _context(
        _run(served.env(), payload, "session-start", "--harness", "claude-code"), "SessionStart"
    )
    listed = _keys(context, "session")
    assert listed and listed <= {key_of(n) for n in ("a1", "a2", "a3", "a4")}  # alpha's, newest first, not c1
    assert "codex resume" in context


def test_claude_code_compact_hook_says_what_the_session_was_about(served: ScopeHome) -> None:
    payload = _claude(served, "SessionStart", source="compact")
    context = _context(_run(served.env(), payload, "compact", "--harness", "claude-code"), "SessionStart")
    assert "zebraword markerc1 please read the app" in context
    assert session_id(key_of("c1")) in context


def test_gemini_cli_before_agent_and_session_start_hooks(served: ScopeHome) -> None:
    base = {
        "session_id": "a7c5e1f0-0000-4000-8000-000000000001",
        "transcript_path": str(served.path / ".gemini" / "tmp" / "chats" / "session.json"),
        "cwd": str(served.work / "alpha"),
        "timestamp": "2026-04-29T13:00:00.000Z",
    }
    before = {**base, "hook_event_name": "BeforeAgent", "prompt": PROMPT}
    context = _context(_run(served.env(), before, "prompt", "--harness", "gemini-cli"), "BeforeAgent")
    assert key_of("a1") in _keys(context, "event")
    start = {**base, "hook_event_name": "SessionStart", "source": "startup"}
    context = _context(_run(served.env(), start, "session-start", "--harness", "gemini-cli"), "SessionStart")
    assert _keys(context, "session")


def test_codex_user_prompt_submit_hook_skips_its_own_session(served: ScopeHome) -> None:
    payload = {  # developers.openai.com/codex/hooks: Claude Code's wire format, plus turn_id and model
        "session_id": uuid_of("a1"),
        "turn_id": "turn-2",
        "transcript_path": None,
        "cwd": str(served.work / "alpha"),
        "hook_event_name": "UserPromptSubmit",
        "model": "gpt-5",
        "prompt": "zebraword markera1 markera2 please read the app",
    }
    context = _context(_run(served.env(), payload, "prompt", "--harness", "codex"), "UserPromptSubmit")
    found = _keys(context, "event")
    assert found and key_of("a1") not in found and key_of("a2") in found


def test_cursor_session_start_hook_gives_additional_context(served: ScopeHome) -> None:
    payload = {
        "conversation_id": "5f0c2a9e-0000-4000-8000-00000000c0de",
        "generation_id": "9d1b7e44-0000-4000-8000-000000000001",
        "model": "claude-sonnet-4",
        "hook_event_name": "sessionStart",
        "cursor_version": "1.7.2",
        "workspace_roots": [str(served.work / "alpha")],  # no cwd: the first root is the working folder
        "user_email": None,
        "transcript_path": None,
        "session_id": "5f0c2a9e-0000-4000-8000-00000000c0de",
        "is_background_agent": False,
        "composer_mode": "agent",
    }
    done = _run(
        served.env(),
        payload,
        "session-start",
        "--harness",
        "cursor",
        "--format",
        '{"additional_context":null}',
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)  # the whole of stdout is one JSON document, Cursor's sessionStart output
    assert set(out) == {"additional_context"}
    listed = _keys(out["additional_context"], "session")
    assert listed and listed <= {key_of(n) for n in ("a1", "a2", "a3", "a4")}  # alpha's: the workspace root


def test_qwen_code_prompt_hook_reads_what_the_user_typed(served: ScopeHome) -> None:
    base = {
        "session_id": "0b9e3c1d-0000-4000-8000-00000000a17e",
        "transcript_path": str(served.path / ".qwen" / "projects" / "x" / "chats" / "s.jsonl"),
        "cwd": str(served.work / "alpha"),
        "timestamp": "2026-04-29T13:00:00.000Z",
        "permission_mode": "default",
    }
    typed = {
        **base,
        "hook_event_name": "UserPromptSubmit",
        "prompt": "quarterly invoice reconciliation spreadsheet",  # a continuation's model-bound text
        "submitted_prompt": PROMPT,
    }
    context = _context(_run(served.env(), typed, "prompt", "--harness", "qwen-code"), "UserPromptSubmit")
    assert key_of("a1") in _keys(context, "event")
    continuation = {k: v for k, v in typed.items() if k != "submitted_prompt"}
    done = _run(served.env(), continuation, "prompt", "--harness", "qwen-code")
    assert (done.returncode, done.stdout) == (0, "")  # the continuation's text is not confident: nothing
    start = {**base, "hook_event_name": "SessionStart", "source": "startup", "model": "qwen3-coder-plus"}
    context = _context(_run(served.env(), start, "session-start", "--harness", "qwen-code"), "SessionStart")
    assert _keys(context, "session")


def _cline_script(home: ScopeHome, tmp_path: Path, name: str) -> Path:
    """The script ``moraine setup --hooks`` writes for Cline's ``name`` event, this install's moraine in it."""
    configs = hook_configs(home=tmp_path, command=str(MORAINE))
    cline = next(c for c in configs if c.client == "cline")
    write_hooks(cline)
    return cline.path / name


def _cline(home: ScopeHome, hook_name: str, **fields: Any) -> dict[str, Any]:
    return {
        "clineVersion": "3.36.0",
        "hookName": hook_name,
        "timestamp": "1777467600000",
        "taskId": "1777467600000",
        "workspaceRoots": [str(home.work / "alpha")],
        "userId": "user-1",
        **fields,
    }


def _cline_context(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)  # the final (and only) JSON object on stdout is what Cline reads
    assert set(out) == {"cancel", "contextModification"} and out["cancel"] is False
    context: str = out["contextModification"]
    return context


def test_cline_scripts_add_context_at_task_start_and_prompt(served: ScopeHome, tmp_path: Path) -> None:
    run = {"input": None, "env": served.env(), "capture_output": True, "text": True, "timeout": 60}
    prompt = _cline(served, "UserPromptSubmit", userPromptSubmit={"prompt": PROMPT, "attachments": []})
    script = _cline_script(served, tmp_path, "UserPromptSubmit")
    done = subprocess.run([str(script)], **{**run, "input": json.dumps(prompt)}, check=False)
    assert key_of("a1") in _keys(_cline_context(done), "event")
    start = _cline(
        served,
        "TaskStart",
        taskStart={"taskMetadata": {"taskId": "1777467600000", "ulid": "01J", "initialTask": PROMPT}},
    )
    script = _cline_script(served, tmp_path, "TaskStart")
    done = subprocess.run([str(script)], **{**run, "input": json.dumps(start)}, check=False)
    listed = _keys(_cline_context(done), "session")
    assert listed and listed <= {key_of(n) for n in ("a1", "a2", "a3", "a4")}  # the workspace root's project


def test_text_format_prints_the_context_alone(served: ScopeHome) -> None:
    payload = _claude(served, "UserPromptSubmit", prompt=PROMPT)
    done = _run(served.env(), payload, "prompt", "--harness", "claude-code", "--format", "text")
    assert done.returncode == 0 and done.stdout.startswith("Earlier sessions on this")
    assert key_of("a1") in _keys(done.stdout, "event")


def test_an_unconfident_prompt_gets_nothing(served: ScopeHome) -> None:
    payload = _claude(served, "UserPromptSubmit", prompt="quarterly invoice reconciliation spreadsheet")
    done = _run(served.env(), payload, "prompt", "--harness", "claude-code")
    assert (done.returncode, done.stdout) == (0, "")


def test_project_only_searches_the_working_folders_project(served: ScopeHome) -> None:
    payload = _claude(served, "UserPromptSubmit", prompt="zebraword markerb1 markera1 please read the app")
    payload["cwd"] = str(served.work / "beta")
    context = _context(
        _run(served.env(), payload, "prompt", "--harness", "claude-code", "--project-only"),
        "UserPromptSubmit",
    )
    assert _keys(context, "event") <= {key_of("b1"), key_of("b2")}


def _route(home: ScopeHome, body: dict[str, Any]) -> dict[str, Any]:
    state = live_state(DaemonPaths(home.path / ".moraine"))
    assert state is not None
    with httpx.Client(transport=httpx.HTTPTransport(uds=state.socket), timeout=60) as client:
        answer: dict[str, Any] = client.post("http://moraine.daemon" + HOOK_PATH, json=body).json()
    return answer


def test_everything_printed_fits_the_token_budget(served: ScopeHome) -> None:
    body = {"event": "session-start", "cwd": str(served.work / "alpha"), "session": uuid_of("c1")}
    full = _route(served, body)
    small = _route(served, {**body, "budget_tokens": 100})
    assert full["tokens"] > 100 and 0 < small["tokens"] <= 100
    assert len(small["text"]) <= 4 * 100 and small["text"].count("\n") < full["text"].count("\n")
    assert _route(served, {**body, "budget_tokens": 10})["text"] == ""  # not even one line fits: nothing


def test_each_hook_is_one_log_line_without_the_prompt(served: ScopeHome) -> None:
    secret_words = "zebraword markera1 ultraviolet-pelican"
    _run(
        served.env(),
        _claude(served, "UserPromptSubmit", prompt=secret_words),
        "prompt",
        "--harness",
        "claude-code",
    )
    log = (served.path / ".moraine" / "logs" / "daemon.log").read_text()
    lines = [line for line in log.splitlines() if "moraine.hooks: hook prompt (claude-code)" in line]
    assert lines and ("injected" in lines[-1] or "nothing injected" in lines[-1]) and " ms" in lines[-1]
    assert "ultraviolet-pelican" not in log


def test_without_a_daemon_nothing_is_printed_and_one_is_started_for_next_time() -> None:
    """The hook runs in the agent's project, here one holding a package named ``moraine``: the process that brings
    the daemon up imports the installed Moraine, never the project's (it writes a marker if it is imported)."""
    with DaemonHome() as home:
        home.configure(idle_exit_seconds=60)
        home.seed_store()
        env = {**home.env, "MORAINE_CONFIG": str(home.moraine_home / "config.toml")}
        project = home.root / "project"
        marker = home.root / "project-code-ran"
        (project / "moraine" / "hooks").mkdir(parents=True)
        (project / "moraine" / "__init__.py").write_text(
            f"open({str(marker)!r}, 'w').close()\nraise SystemExit(0)\n"
        )
        (project / "moraine" / "hooks" / "__init__.py").write_text("")
        (project / "moraine" / "hooks" / "__main__.py").write_text("")
        payload = {
            "session_id": "x",
            "cwd": str(project),
            "hook_event_name": "UserPromptSubmit",
            "prompt": "x",
        }
        done = _run(env, payload, "prompt", "--harness", "claude-code", cwd=project)
        assert (done.returncode, done.stdout) == (0, "")
        home.wait_ready()
        assert home.daemon_pids()
        assert not marker.exists()
