"""Qwen Code's command hooks: ``hooks`` in ``~/.qwen/settings.json`` (a project's ``.qwen/settings.json`` when
asked), Claude Code's shape with Gemini CLI's millisecond ``timeout`` and ``name``. SessionStart (matcher
``startup``, ``resume``, ``clear``, ``compact``) and UserPromptSubmit take ``hookSpecificOutput.additionalContext``.
UserPromptSubmit also fires on a tool result's continuation: ``submitted_prompt``, when the input has it, is what
the user typed, and ``moraine hook`` reads it before ``prompt``."""

from moraine.harnesses.hook_client import HookClient, HookEntry

CLIENT = HookClient(
    name="qwen-code",
    display_name="Qwen Code",
    path="~/.qwen/settings.json",
    project_path=".qwen/settings.json",
    entries=(
        HookEntry("SessionStart", "session-start", "startup|resume|clear"),
        HookEntry("SessionStart", "compact", "compact"),
        HookEntry("UserPromptSubmit", "prompt"),
    ),
    timeout_unit="milliseconds",
    name_field=True,
    hint="user scope: every project (`/hooks` in Qwen Code lists them)",
)
