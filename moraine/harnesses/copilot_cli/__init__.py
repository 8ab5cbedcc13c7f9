"""GitHub Copilot CLI: session event logs under ``~/.copilot/session-state/``."""

from moraine.harnesses._locations import in_home
from moraine.harnesses.declaration import Harness, Resume

__all__ = ["HARNESS"]

_STATE = "~/.copilot/session-state"

HARNESS = Harness(
    name="copilot-cli",
    display_name="GitHub Copilot CLI",
    adapter="moraine.harnesses.copilot_cli.adapter:CopilotCliAdapter",
    locations=(
        in_home("copilot-cli", f"{_STATE}/*/events.jsonl", _STATE),
        in_home("copilot-cli-flat", f"{_STATE}/*.jsonl", _STATE),
    ),
    resume=Resume(("copilot", "--resume")),
    reads=(
        "session events in both layouts (<id>/events.jsonl with workspace.yaml, and the older <id>.jsonl): "
        "prompts, replies, reasoning, tool requests with their results and success, model changes, aborts, "
        "notices, compactions, output tokens per reply, the workspace name as title"
    ),
    not_read=(
        "per-model token totals of session.shutdown (session-wide, not per call), streaming deltas, hook and "
        "sub-agent lifecycle events, permission requests; the early history-session-state/ JSON files"
    ),
)
