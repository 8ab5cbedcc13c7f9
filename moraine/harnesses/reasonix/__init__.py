"""Reasonix: a DeepSeek-native coding agent CLI, one JSONL transcript and a .meta sidecar per session."""

from moraine.harness_api.declaration import Harness, Location

HARNESS = Harness(
    name="reasonix",
    display_name="Reasonix",
    adapter="moraine.harnesses.reasonix.adapter:ReasonixAdapter",
    locations=(
        Location(
            source="reasonix",
            glob="~/.reasonix/**/*.jsonl",
            watch_root="~/.reasonix",
            windows_glob="~/AppData/Roaming/reasonix/**/*.jsonl",
            windows_watch_root="~/AppData/Roaming/reasonix",
        ),
    ),
    reads=(
        "transcripts (project, global, sub-agent and archived sessions): user and assistant messages, "
        "reasoning_content, tool calls and tool results; title, workspace, model and start from the .meta sidecar"
    ),
    not_read="message times and token usage (not recorded per message); no resume command",
)
