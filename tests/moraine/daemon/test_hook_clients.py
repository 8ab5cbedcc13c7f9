"""``moraine setup --hooks``: each agent's hooks in its documented file and shape, merged like ``setup`` merges
(other settings and hooks kept, a backup, user scope unless asked), idempotent; ``--hooks --remove`` takes out
exactly Moraine's hooks."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

from fixtures.setup_cli import run_setup as _setup
from moraine.daemon.hook_clients import HookConfig, hook_client_names, hook_configs, remove_hooks, write_hooks
from moraine.daemon.mcp_clients import SetupError

COMMAND = "/opt/moraine/bin/moraine"

# Per agent (its documentation): the user-scope file, and (agent event, matcher, Moraine event, timeout) per hook.
DOCUMENTED: dict[str, tuple[str, list[tuple[str, str | None, str, int]]]] = {
    "claude-code": (
        ".claude/settings.json",
        [
            ("SessionStart", "startup|resume|clear", "session-start", 10),
            ("SessionStart", "compact", "compact", 10),
            ("UserPromptSubmit", None, "prompt", 10),
        ],
    ),
    "codex": (
        ".codex/hooks.json",
        [
            ("SessionStart", "startup|resume|clear", "session-start", 10),
            ("UserPromptSubmit", None, "prompt", 10),
        ],
    ),
    "gemini-cli": (
        ".gemini/settings.json",
        [("SessionStart", None, "session-start", 10_000), ("BeforeAgent", None, "prompt", 10_000)],
    ),
    "cursor": (".cursor/hooks.json", [("sessionStart", None, "session-start", 10)]),
    "qwen-code": (
        ".qwen/settings.json",
        [
            ("SessionStart", "startup|resume|clear", "session-start", 10_000),
            ("SessionStart", "compact", "compact", 10_000),
            ("UserPromptSubmit", None, "prompt", 10_000),
        ],
    ),
}
FLAT = {"cursor"}  # entries straight in the event's list: {"command", "timeout"}
# An agent with one executable per event (its documentation): the user-scope folder, and file name -> Moraine event.
SCRIPTS: dict[str, tuple[str, dict[str, str]]] = {
    "cline": (
        "Documents/Cline/Hooks",
        {"TaskStart": "session-start", "TaskResume": "session-start", "UserPromptSubmit": "prompt"},
    ),
}


def _configs(home: Path, **kwargs: Any) -> dict[str, HookConfig]:
    return {c.client: c for c in hook_configs(home=home, command=COMMAND, **kwargs)}


def _hooks(group: dict[str, Any]) -> list[dict[str, Any]]:
    """A group's hooks; a flat entry (Cursor's) is one hook itself."""
    hooks: list[dict[str, Any]] = group["hooks"] if "hooks" in group else [group]
    return hooks


def _ours(data: dict[str, Any]) -> list[tuple[str, str | None, str, int]]:
    found = []
    for event, groups in data["hooks"].items():
        for group in groups:
            for hook in _hooks(group):
                words = shlex.split(hook["command"])
                if "hook" in words and words[words.index("hook") - 1] == COMMAND:
                    found.append(
                        (event, group.get("matcher"), words[words.index("hook") + 1], hook["timeout"])
                    )
    return found


def test_every_registered_hook_client_has_a_documented_row() -> None:
    assert sorted(hook_client_names()) == sorted([*DOCUMENTED, *SCRIPTS])


@pytest.mark.parametrize("client", sorted(DOCUMENTED))
def test_each_agent_gets_its_documented_file_and_hooks(tmp_path: Path, client: str) -> None:
    path, hooks = DOCUMENTED[client]
    config = _configs(tmp_path)[client]
    assert config.path == tmp_path / path
    write_hooks(config)
    data = json.loads(config.path.read_text())
    assert sorted(_ours(data), key=str) == sorted(hooks, key=str)
    for group in (g for groups in data["hooks"].values() for g in groups):
        (hook,) = _hooks(group)
        command = shlex.split(hook["command"])
        assert command[command.index("hook") + 2 :][:2] == ["--harness", client]
        if client in FLAT:
            assert set(group) == {"command", "timeout"}
        else:
            assert hook["type"] == "command"


def test_writing_keeps_other_settings_and_hooks_and_backs_up_the_old_file(tmp_path: Path) -> None:
    claude = _configs(tmp_path)["claude-code"]
    claude.path.parent.mkdir(parents=True)
    old = {
        "model": "opus",
        "hooks": {
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "my-linter"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
        },
    }
    claude.path.write_text(json.dumps(old))
    backup = write_hooks(claude)
    merged = json.loads(claude.path.read_text())
    assert merged["model"] == "opus" and merged["hooks"]["Stop"] == old["hooks"]["Stop"]
    assert merged["hooks"]["UserPromptSubmit"][0] == old["hooks"]["UserPromptSubmit"][0]
    assert len(_ours(merged)) == 3
    assert backup is not None and json.loads(backup.read_text()) == old


@pytest.mark.parametrize("client", sorted(DOCUMENTED))
def test_writing_twice_changes_nothing(tmp_path: Path, client: str) -> None:
    config = _configs(tmp_path)[client]
    write_hooks(config)
    first = config.path.read_text()
    assert write_hooks(config) is None  # nothing changed: no backup
    assert config.path.read_text() == first
    assert list(config.path.parent.iterdir()) == [config.path]


PROJECT = {
    "claude-code": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini-cli": ".gemini/settings.json",
    "cursor": ".cursor/hooks.json",
    "qwen-code": ".qwen/settings.json",
    "cline": ".clinerules/hooks",
}


def test_project_scope_uses_each_agents_documented_project_path(tmp_path: Path) -> None:
    configs = _configs(tmp_path / "home", project_dir=tmp_path / "repo")
    assert {name: c.path for name, c in configs.items()} == {
        name: tmp_path / "repo" / path for name, path in PROJECT.items()
    }


def test_a_changed_install_replaces_moraines_old_hooks(tmp_path: Path) -> None:
    claude = _configs(tmp_path)["claude-code"]
    write_hooks(claude)
    moved = {c.client: c for c in hook_configs(home=tmp_path, command="/usr/local/bin/moraine")}[
        "claude-code"
    ]
    write_hooks(moved)
    commands = [
        h["command"]
        for gs in json.loads(claude.path.read_text())["hooks"].values()
        for g in gs
        for h in g["hooks"]
    ]
    assert len(commands) == 3 and all(c.startswith("/usr/local/bin/moraine hook") for c in commands)


def test_remove_takes_out_only_moraines_hooks(tmp_path: Path) -> None:
    codex = _configs(tmp_path)["codex"]
    codex.path.parent.mkdir(parents=True)
    mine = {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "audit --prompt"}]}]}}
    codex.path.write_text(json.dumps(mine))
    write_hooks(codex)
    assert remove_hooks(codex) is not None
    assert json.loads(codex.path.read_text()) == mine
    assert remove_hooks(codex) is None  # nothing of Moraine's left: untouched


def test_cursor_hooks_file_is_versioned_flat_and_keeps_other_hooks(tmp_path: Path) -> None:
    cursor = _configs(tmp_path)["cursor"]
    cursor.path.parent.mkdir(parents=True)
    mine = {
        "version": 1,
        "hooks": {"sessionStart": [{"command": "./audit.sh"}], "stop": [{"command": "notify"}]},
    }
    cursor.path.write_text(json.dumps(mine))
    write_hooks(cursor)
    merged = json.loads(cursor.path.read_text())
    assert merged["version"] == 1 and merged["hooks"]["stop"] == mine["hooks"]["stop"]
    assert merged["hooks"]["sessionStart"][0] == {"command": "./audit.sh"}
    command = shlex.split(merged["hooks"]["sessionStart"][1]["command"])
    assert command[-2:] == ["--format", '{"additional_context":null}']
    assert remove_hooks(cursor) is not None
    assert json.loads(cursor.path.read_text()) == mine


def test_a_new_cursor_file_starts_with_its_version(tmp_path: Path) -> None:
    cursor = _configs(tmp_path)["cursor"]
    write_hooks(cursor)
    assert list(json.loads(cursor.path.read_text())) == ["version", "hooks"]


def _script_command(path: Path) -> list[str]:
    lines = path.read_text().splitlines()
    assert lines[0] == "#!/bin/sh" and lines[-1].startswith("exec ")
    return shlex.split(lines[-1])[1:]


def test_cline_gets_one_user_only_executable_script_per_event(tmp_path: Path) -> None:
    folder, events = SCRIPTS["cline"]
    cline = _configs(tmp_path)["cline"]
    assert cline.path == tmp_path / folder
    write_hooks(cline)
    assert sorted(p.name for p in cline.path.iterdir()) == sorted(events)
    for name, event in events.items():
        path = cline.path / name
        assert path.stat().st_mode & 0o777 == 0o700
        command = _script_command(path)
        assert command[:3] == [COMMAND, "hook", event]
        assert command[3:] == [
            "--harness",
            "cline",
            "--format",
            '{"cancel":false,"contextModification":null}',
        ]
    assert write_hooks(cline) is None  # twice: nothing changes, no backup
    assert sorted(p.name for p in cline.path.iterdir()) == sorted(events)


def test_cline_scripts_a_users_own_hook_is_never_touched(tmp_path: Path) -> None:
    cline = _configs(tmp_path)["cline"]
    cline.path.mkdir(parents=True)
    mine = cline.path / "UserPromptSubmit"
    mine.write_text("#!/bin/sh\necho '{\"cancel\": false}'\n")
    with pytest.raises(SetupError, match="UserPromptSubmit"):
        write_hooks(cline)
    assert sorted(p.name for p in cline.path.iterdir()) == ["UserPromptSubmit"]  # nothing written at all
    assert remove_hooks(cline) is None and mine.exists()


def test_cline_scripts_removed_are_kept_aside_not_executable(tmp_path: Path) -> None:
    cline = _configs(tmp_path)["cline"]
    write_hooks(cline)
    backup = remove_hooks(cline)
    assert backup is not None and backup.stat().st_mode & 0o777 == 0o600
    left = list(cline.path.iterdir())
    assert len(left) == 3 and all(".bak-" in p.name and p.stat().st_mode & 0o111 == 0 for p in left)
    assert remove_hooks(cline) is None


def test_cline_changed_install_replaces_moraines_older_script(tmp_path: Path) -> None:
    write_hooks(_configs(tmp_path)["cline"])
    moved = {c.client: c for c in hook_configs(home=tmp_path, command="/usr/local/bin/moraine")}["cline"]
    assert write_hooks(moved) is not None
    for name in SCRIPTS["cline"][1]:
        assert _script_command(moved.path / name)[0] == "/usr/local/bin/moraine"
        assert (moved.path / name).stat().st_mode & 0o777 == 0o700


def test_remove_from_a_missing_file_writes_nothing(tmp_path: Path) -> None:
    claude = _configs(tmp_path)["claude-code"]
    assert remove_hooks(claude) is None
    assert not claude.path.exists()


@pytest.mark.parametrize("broken", ["{not json", '{"hooks": []}', '{"hooks": {"SessionStart": {}}}'])
def test_a_file_that_cannot_be_merged_safely_is_left_untouched(tmp_path: Path, broken: str) -> None:
    claude = _configs(tmp_path)["claude-code"]
    claude.path.parent.mkdir(parents=True)
    claude.path.write_text(broken)
    with pytest.raises(SetupError, match=str(claude.path)):
        write_hooks(claude)
    assert claude.path.read_text() == broken


def test_moraine_home_and_project_only_reach_the_hook_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MORAINE_HOME", "/data/moraine home")
    monkeypatch.delenv("MORAINE_CONFIG", raising=False)
    config = _configs(tmp_path, project_only=True)["claude-code"]
    command = config.groups["UserPromptSubmit"][0]["hooks"][0]["command"]
    assert shlex.split(command) == [
        "env", "MORAINE_HOME=/data/moraine home", COMMAND, "hook", "prompt",
        "--harness", "claude-code", "--format", "json", "--project-only",
    ]  # fmt: skip


def test_setup_hooks_writes_user_files_beside_the_mcp_entry_and_nothing_in_the_repository(
    tmp_path: Path,
) -> None:
    home, repo = tmp_path / "home", tmp_path / "repo"
    (home / ".claude").mkdir(parents=True)
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    result = _setup(home, repo, "--write", "--hooks", "--client", "claude-code")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in repo.iterdir()) == [".git"]
    assert json.loads((home / ".claude.json").read_text())["mcpServers"]["moraine"]["args"] == ["mcp"]
    hooks = json.loads((home / ".claude" / "settings.json").read_text())["hooks"]
    assert set(hooks) == {"SessionStart", "UserPromptSubmit"}


def test_setup_without_hooks_writes_no_hooks(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    result = _setup(home, tmp_path, "--write", "--client", "claude-code")
    assert result.exit_code == 0, result.output
    assert not (home / ".claude" / "settings.json").exists()


def test_setup_hooks_project_and_remove(tmp_path: Path) -> None:
    home, repo = tmp_path / "home", tmp_path / "repo"
    (home / ".gemini").mkdir(parents=True)
    repo.mkdir()
    result = _setup(home, repo, "--write", "--hooks", "--project", "--client", "gemini-cli")
    assert result.exit_code == 0, result.output
    project = repo / ".gemini" / "settings.json"
    assert set(json.loads(project.read_text())["hooks"]) == {"SessionStart", "BeforeAgent"}
    assert not (home / ".gemini" / "settings.json").exists()
    removed = _setup(home, repo, "--hooks", "--remove", "--project", "--client", "gemini-cli")
    assert removed.exit_code == 0, removed.output
    assert "hooks" not in json.loads(project.read_text())
    assert "mcpServers" in json.loads(project.read_text())  # the MCP entry stays


def test_setup_hooks_for_cursor_and_qwen_code_and_remove(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for folder in (".cursor", ".qwen"):
        (home / folder).mkdir(parents=True)
    for client, path, events in (
        ("cursor", ".cursor/hooks.json", {"sessionStart"}),
        ("qwen-code", ".qwen/settings.json", {"SessionStart", "UserPromptSubmit"}),
    ):
        result = _setup(home, tmp_path, "--write", "--hooks", "--client", client)
        assert result.exit_code == 0, result.output
        assert set(json.loads((home / path).read_text())["hooks"]) == events
        removed = _setup(home, tmp_path, "--hooks", "--remove", "--client", client)
        assert removed.exit_code == 0, removed.output
        assert "hooks" not in json.loads((home / path).read_text())


def test_setup_hooks_for_cline_in_a_project_and_remove(tmp_path: Path) -> None:
    home, repo = tmp_path / "home", tmp_path / "repo"
    (home / "Documents" / "Cline").mkdir(parents=True)
    repo.mkdir()
    result = _setup(home, repo, "--write", "--hooks", "--project", "--client", "cline")
    assert result.exit_code == 0, result.output
    folder = repo / ".clinerules" / "hooks"
    assert sorted(p.name for p in folder.iterdir()) == sorted(SCRIPTS["cline"][1])
    assert not (home / "Documents" / "Cline" / "Hooks").exists()
    removed = _setup(home, repo, "--hooks", "--remove", "--project", "--client", "cline")
    assert removed.exit_code == 0, removed.output
    assert all(".bak-" in p.name for p in folder.iterdir())


def test_remove_without_hooks_is_refused(tmp_path: Path) -> None:
    result = _setup(tmp_path, tmp_path, "--remove")
    assert result.exit_code != 0 and "--hooks" in result.output
