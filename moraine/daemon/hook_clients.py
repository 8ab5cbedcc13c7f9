"""Hook entries for every agent with command hooks (``moraine setup --hooks``; ``--remove`` takes them out).

The clients are the registered ``HookClient`` declarations (``moraine.harnesses.hook_client``). Each gets one
command per declared hook, ``<this install's moraine> hook EVENT --harness NAME --format F`` (after ``env
MORAINE_HOME=... MORAINE_CONFIG=...`` when they are set), in its user-scope settings file; a project's file only
when asked (Cursor's flat entries sit straight in the event's list, in a file that starts with ``"version": 1``).
Writing merges like ``moraine setup`` does (``mcp_clients.replace_file``): the file's other settings
and other hooks are kept, the previous file is backed up, a file that does not parse is left alone. Moraine's own
entries are recognised by their command (``moraine hook <event>``), so writing twice changes nothing and
``--remove`` removes exactly them. An agent with a script per event (Cline) gets its scripts written and removed
by ``moraine.daemon.hook_scripts`` instead.
"""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from moraine.daemon.hook_scripts import (
    remove_scripts,
    runs_moraine_hook,
    script_text,
    scripts_text,
    write_scripts,
)
from moraine.daemon.mcp_clients import SetupError, moraine_command, replace_file, resolve_path
from moraine.harnesses.hook_client import HookClient, hook_clients

__all__ = ["HookConfig", "hook_client_names", "hook_configs", "hook_command", "remove_hooks", "write_hooks"]

_PASSED_ENV = ("MORAINE_HOME", "MORAINE_CONFIG")
_AGENT_TIMEOUT_SECONDS = 10  # the agent's own limit: far past Moraine's deadline, only for a hook that hangs


@dataclass(frozen=True, slots=True)
class HookConfig:
    """One agent's hooks: the settings file and, per agent event, the groups Moraine adds there; or, for an agent
    with a script per event (Cline), the hooks folder and the scripts by file name."""

    client: str
    display_name: str
    path: Path
    groups: dict[str, list[dict[str, Any]]]
    hint: str
    present: bool
    preamble: dict[str, Any] = field(default_factory=dict)  # keys a new file starts with (Cursor's version)
    # file name -> text when ``path`` is a folder of one script per event (``moraine.daemon.hook_scripts``)
    scripts: dict[str, str] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The settings document holding only Moraine's hooks, or the scripts (what is shown, and merged)."""
        if self.scripts:
            return scripts_text(self.path, self.scripts)
        return json.dumps({**self.preamble, "hooks": self.groups}, indent=2) + "\n"


def hook_client_names() -> tuple[str, ...]:
    """Return the names of every registered hook client."""
    return tuple(hook_clients())


def hook_command(
    client: HookClient, event: str, command: str | None = None, project_only: bool = False
) -> str:
    """Return the shell command a hook of ``client`` runs for Moraine's ``event``."""
    env = [f"{name}={os.environ[name]}" for name in _PASSED_ENV if os.environ.get(name)]
    words = [*(["env", *env] if env else []), command or moraine_command(), "hook", event]
    words += ["--harness", client.name, "--format", client.format]
    return shlex.join(words + (["--project-only"] if project_only else []))


def _groups(client: HookClient, command: str | None, project_only: bool) -> dict[str, list[dict[str, Any]]]:
    timeout = _AGENT_TIMEOUT_SECONDS * (1000 if client.timeout_unit == "milliseconds" else 1)
    groups: dict[str, list[dict[str, Any]]] = {}
    for entry in client.entries:
        hook: dict[str, Any] = {}
        if client.name_field:
            hook["name"] = f"moraine-{entry.event}"
        hook |= {
            "type": "command",
            "command": hook_command(client, entry.event, command, project_only),
            "timeout": timeout,
        }
        if client.layout == "flat":
            del hook["type"]  # Cursor's entries are commands: {"command", "timeout"}
            groups.setdefault(entry.agent_event, []).append(hook)
            continue
        group: dict[str, Any] = {"matcher": entry.matcher} if entry.matcher else {}
        groups.setdefault(entry.agent_event, []).append(group | {"hooks": [hook]})
    return groups


def hook_configs(
    home: Path | None = None,
    project_dir: Path | None = None,
    command: str | None = None,
    project_only: bool = False,
) -> list[HookConfig]:
    """Return every hook client's configuration (user scope under ``home``; with ``project_dir``, project files)."""
    home = home or Path.home()
    configs = []
    for client in hook_clients().values():
        user_path = resolve_path(client.path, home)
        path = project_dir / client.project_path if project_dir and client.project_path else user_path
        scripts = client.layout == "scripts"
        configs.append(
            HookConfig(
                client.name,
                client.display_name,
                path,
                {} if scripts else _groups(client, command, project_only),
                client.hint,
                user_path.parent.exists(),
                {"version": client.version} if client.version is not None else {},
                _scripts(client, command, project_only) if scripts else {},
            )
        )
    return configs


def _scripts(client: HookClient, command: str | None, project_only: bool) -> dict[str, str]:
    return {
        e.agent_event: script_text(hook_command(client, e.event, command, project_only))
        for e in client.entries
    }


def _is_ours(hook: Any) -> bool:
    return (
        isinstance(hook, dict) and isinstance(hook.get("command"), str) and runs_moraine_hook(hook["command"])
    )


def _without_ours(config: HookConfig, hooks: dict[str, Any]) -> dict[str, Any]:
    """``hooks`` with every Moraine hook taken out (a group left without hooks goes too)."""
    kept: dict[str, Any] = {}
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            raise SetupError(f"{config.path}: hooks.{event} is not a list; not changing it")
        left = []
        for group in groups:
            if _is_ours(group):  # a flat entry (Cursor's) is itself the hook
                continue
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(inner, list):
                left.append(group)
                continue
            others = [hook for hook in inner if not _is_ours(hook)]
            if others:
                left.append(group | {"hooks": others} if len(others) != len(inner) else group)
        if left:
            kept[event] = left
    return kept


def _merged(config: HookConfig, existing: str | None, install: bool) -> str | None:
    """The file's new text, or None when there is nothing to write (removing from a file that is not there)."""
    if existing is None or not existing.strip():
        return config.text if install else None
    try:
        data = json.loads(existing)
    except json.JSONDecodeError as exc:
        raise SetupError(
            f"{config.path} is not valid JSON ({exc}); fix or move it, or add this by hand:\n{config.text}"
        ) from exc
    if not isinstance(data, dict) or not isinstance(data.get("hooks", {}), dict):
        raise SetupError(f"{config.path}: expected a JSON object with a 'hooks' object; not changing it")
    hooks = _without_ours(config, data.get("hooks") or {})
    if install:
        data = {**config.preamble, **data}
        for event, groups in config.groups.items():
            hooks[event] = [*hooks.get(event, []), *groups]
    if hooks:
        data["hooks"] = hooks
    else:
        data.pop("hooks", None)
    return json.dumps(data, indent=2) + "\n"


def write_hooks(config: HookConfig) -> Path | None:
    """Merge Moraine's hooks into ``config``'s file (created if missing); return the previous file's backup.

    Raises:
        SetupError: the existing file does not parse, or its shape does not allow a safe merge.
    """
    return _apply(config, install=True)


def remove_hooks(config: HookConfig) -> Path | None:
    """Take Moraine's hooks out of ``config``'s file; return the previous file's backup (None: nothing changed).

    Raises:
        SetupError: the existing file does not parse, or its shape does not allow a safe merge.
    """
    return _apply(config, install=False)


def _apply(config: HookConfig, install: bool) -> Path | None:
    if config.scripts:
        return (write_scripts if install else remove_scripts)(config.path, config.scripts)
    existing = config.path.read_text(encoding="utf-8") if config.path.exists() else None
    merged = _merged(config, existing, install)
    return replace_file(config.path, existing, merged) if merged is not None else None
