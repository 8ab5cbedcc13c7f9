"""Cline's command hooks: one executable per event, named after it (no extension), in ``~/Documents/Cline/Hooks/``
(a project's ``.clinerules/hooks/`` when asked); docs.cline.bot, Hooks and Hook Reference. TaskStart, TaskResume
and UserPromptSubmit answer ``{"cancel": false, "contextModification": ...}`` on stdout, which is added to the
conversation for the next model request. The input names the task (``taskId``), ``workspaceRoots`` and, for a
prompt, ``userPromptSubmit.prompt``. Each script is written user-only (0700) and runs ``moraine hook``."""

from moraine.harnesses.hook_client import HookClient, HookEntry

CLIENT = HookClient(
    name="cline",
    display_name="Cline",
    path="~/Documents/Cline/Hooks",
    project_path=".clinerules/hooks",
    entries=(
        HookEntry("TaskStart", "session-start"),
        HookEntry("TaskResume", "session-start"),
        HookEntry("UserPromptSubmit", "prompt"),
    ),
    output="document",
    document={"cancel": False, "contextModification": None},
    layout="scripts",
    hint="user scope: every workspace (Cline's Hooks tab lists them; hooks must be on in Cline's settings)",
)
