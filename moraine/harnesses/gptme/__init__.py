"""gptme: one folder per conversation under ``~/.local/share/gptme/logs/`` holding ``conversation.jsonl``."""

from moraine.harness_api.declaration import Harness, Location

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="gptme",
    display_name="gptme",
    adapter="moraine.harnesses.gptme.adapter:GptmeAdapter",
    usage="per assistant message (`metadata.usage`)",
    locations=(Location(source="gptme", glob="~/.local/share/gptme/logs/*/conversation.jsonl"),),
    reads=(
        "user, assistant, system and tool messages; tool uses written as fenced blocks (save, append, patch, "
        "shell, ipython) as calls answered by the following tool output; per-reply model and token usage"
    ),
    not_read=(
        "tool calls in gptme's native tool-calling format, the conversation's config (name, workspace: "
        "no working directory is recorded in the log), cost, no resume command (not confirmed from the facts read)"
    ),
)
