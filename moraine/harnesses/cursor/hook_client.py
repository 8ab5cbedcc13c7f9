"""Cursor's command hooks: ``hooks`` in ``~/.cursor/hooks.json`` (a project's ``.cursor/hooks.json`` when asked), a
file with ``"version": 1`` whose events hold flat ``{"command", "timeout"}`` entries (cursor.com/docs/agent/hooks).
Only sessionStart adds context (its output's ``additional_context``); beforeSubmitPrompt can only let the prompt
through or block it, so a prompt gets nothing. The input names the conversation (``session_id``,
``conversation_id``) and ``workspace_roots`` instead of a ``cwd``."""

from moraine.harnesses.hook_client import HookClient, HookEntry

CLIENT = HookClient(
    name="cursor",
    display_name="Cursor",
    path="~/.cursor/hooks.json",
    project_path=".cursor/hooks.json",
    entries=(HookEntry("sessionStart", "session-start"),),
    output="document",
    document={"additional_context": None},
    layout="flat",
    version=1,
    hint="user scope: every workspace (Cursor Settings > Hooks lists them); a session start only",
)
