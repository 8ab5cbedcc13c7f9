"""Grok Build (xAI): chat histories under ``~/.grok/sessions/<cwd>/<session id>/``."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness, Resume

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="grok",
    display_name="Grok Build",
    adapter="moraine.harnesses.grok.adapter:GrokAdapter",
    locations=(in_home("grok", "~/.grok/sessions/*/*/chat_history.jsonl", "~/.grok/sessions"),),
    resume=Resume(("grok", "--resume")),
    reads=(
        "chat_history.jsonl in the current (typed rows) and legacy (chat-completions rows) versions: prompts "
        "without injected context blocks, interjections, reasoning, replies, tool calls and results, server-side "
        "tool calls with their status, models; summary.json's id, title, cwd, model, creation time and parent"
    ),
    not_read=(
        "per-row times and per-turn token usage (updates.jsonl; events take the session's updated_at), "
        "signals.json metrics; GROK_HOME when it moves ~/.grok"
    ),
)
