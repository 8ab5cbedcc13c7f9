"""Gemini CLI's command hooks: ``hooks`` in ``~/.gemini/settings.json`` (a project's ``.gemini/settings.json`` when
asked). SessionStart and BeforeAgent (after the prompt, before planning) take ``hookSpecificOutput.
additionalContext``; stdout must be that JSON alone. PreCompress is advisory only, so a compaction gets nothing."""

from moraine.harnesses.hook_client import HookClient, HookEntry

CLIENT = HookClient(
    name="gemini-cli",
    display_name="Gemini CLI",
    path="~/.gemini/settings.json",
    project_path=".gemini/settings.json",
    entries=(
        HookEntry("SessionStart", "session-start"),
        HookEntry("BeforeAgent", "prompt"),
    ),
    timeout_unit="milliseconds",
    name_field=True,
    hint="user scope: every project (`/hooks` in Gemini CLI lists them)",
)
