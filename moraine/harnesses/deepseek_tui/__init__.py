"""DeepSeek TUI: a terminal agent for DeepSeek models, one JSON file per session (also shipped as CodeWhale)."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness, Resume

HARNESS = Harness(
    name="deepseek-tui",
    display_name="DeepSeek TUI",
    adapter="moraine.harnesses.deepseek_tui.adapter:DeepSeekTuiAdapter",
    locations=(
        in_home("deepseek-tui", "~/.deepseek/sessions/*.json", "~/.deepseek/sessions", "deepseek_tui_json"),
        in_home("codewhale", "~/.codewhale/sessions/*.json", "~/.codewhale/sessions", "deepseek_tui_json"),
    ),
    readers={"deepseek_tui_json": "moraine.harnesses.deepseek_tui.reader:DeepSeekTuiReader"},
    reads=(
        "session files (schema_version 1): title, workspace, model, user and assistant messages, thinking, "
        "tool_use calls and tool results, message times"
    ),
    not_read=(
        "total_tokens (a session total, not per call), checkpoints (latest.json, offline_queue.json); the resume "
        "command is DeepSeek TUI's (deepseek --resume <id>, its runbook), also for CodeWhale's sessions"
    ),
    resume=Resume(("deepseek", "--resume")),
)
