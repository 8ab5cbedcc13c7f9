"""GitHub Copilot CLI: session event logs under ``~/.copilot/session-state/``."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness, Resume

__all__ = ["HARNESS"]

_STATE = "~/.copilot/session-state"
_HISTORY = "~/.copilot/history-session-state"

HARNESS = Harness(
    name="copilot-cli",
    display_name="GitHub Copilot CLI",
    adapter="moraine.harnesses.copilot_cli.adapter:CopilotCliAdapter",
    usage="output tokens only, per assistant message (`outputTokens`)",
    locations=(
        in_home("copilot-cli", f"{_STATE}/*/events.jsonl", _STATE),
        in_home("copilot-cli-flat", f"{_STATE}/*.jsonl", _STATE),
        in_home("copilot-cli-history", f"{_HISTORY}/*.json", _HISTORY, reader="copilot_history"),
    ),
    readers={"copilot_history": "moraine.harnesses.copilot_cli.history:CopilotHistoryReader"},
    resume=Resume(("copilot", "--resume")),
    reads=(
        "session events in both layouts (<id>/events.jsonl with workspace.yaml, and the older <id>.jsonl) and the "
        "early history-session-state/ files (chat messages, or the timeline when they hold none: tool calls and "
        "results): "
        "prompts, replies, reasoning, tool requests with their results and success, model changes, aborts, "
        "notices, compactions, output tokens per reply, the workspace name as title"
    ),
    not_read=(
        "per-model token totals of session.shutdown (session-wide, not per call), streaming deltas, hook and "
        "sub-agent lifecycle events, permission requests; an early file's timeline beside its chat messages (the "
        "messages are read), "
        "COPILOT_HOME when it moves ~/.copilot"
    ),
)
