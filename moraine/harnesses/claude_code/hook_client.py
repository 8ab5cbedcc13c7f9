"""Claude Code's command hooks: ``hooks`` in ``~/.claude/settings.json`` (a project's ``.claude/settings.json`` when
asked). SessionStart's matcher tells a fresh start (``startup``, ``resume``, ``clear``) from the start after a
compaction (``compact``); plain stdout or ``hookSpecificOutput.additionalContext`` is added as context."""

from moraine.harnesses.hook_client import HookClient, HookEntry

CLIENT = HookClient(
    name="claude-code",
    display_name="Claude Code",
    path="~/.claude/settings.json",
    project_path=".claude/settings.json",
    entries=(
        HookEntry("SessionStart", "session-start", "startup|resume|clear"),
        HookEntry("SessionStart", "compact", "compact"),
        HookEntry("UserPromptSubmit", "prompt"),
    ),
    hint="user scope: every project (`/hooks` in Claude Code lists them)",
)
