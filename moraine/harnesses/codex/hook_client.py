"""Codex's command hooks: ``hooks`` in ``~/.codex/hooks.json`` (a project's ``.codex/hooks.json`` when asked), the
same wire format as Claude Code's (developers.openai.com/codex/hooks): SessionStart (matcher ``startup``,
``resume``, ``clear``) and UserPromptSubmit take ``hookSpecificOutput.additionalContext``. Older Codex versions run
hooks only with ``[features] codex_hooks = true`` in ``config.toml``."""

from moraine.harnesses.hook_client import HookClient, HookEntry

CLIENT = HookClient(
    name="codex",
    display_name="Codex",
    path="~/.codex/hooks.json",
    project_path=".codex/hooks.json",
    entries=(
        HookEntry("SessionStart", "session-start", "startup|resume|clear"),
        HookEntry("UserPromptSubmit", "prompt"),
    ),
    hint="user scope: every project (Codex versions before hooks were on by default need [features] codex_hooks = true)",
)
