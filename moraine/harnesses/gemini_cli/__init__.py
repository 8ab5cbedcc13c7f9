"""Gemini CLI (Google): chat files under ``~/.gemini/tmp/<project>/chats/``, a JSON document or JSONL each."""

from moraine.harnesses.declaration import Harness, Location, Resume

__all__ = ["HARNESS"]

_CHATS = "~/.gemini/tmp/*/chats"

HARNESS = Harness(
    name="gemini-cli",
    display_name="Gemini CLI",
    adapter="moraine.harnesses.gemini_cli.adapter:GeminiCliAdapter",
    locations=(
        Location(
            source="gemini-cli",
            glob=f"{_CHATS}/session-*.json",
            watch_root="~/.gemini/tmp",
            reader="gemini_json",
            windows_glob="~/.gemini/tmp/*/chats/session-*.json",
            windows_watch_root="~/.gemini/tmp",
        ),
        Location(
            source="gemini-cli-jsonl",
            glob=f"{_CHATS}/session-*.jsonl",
            watch_root="~/.gemini/tmp",
            windows_glob="~/.gemini/tmp/*/chats/session-*.jsonl",
            windows_watch_root="~/.gemini/tmp",
        ),
    ),
    readers={"gemini_json": "moraine.harnesses.gemini_cli.reader:GeminiChatReader"},
    resume=Resume(("gemini", "--resume")),
    reads=(
        "chat files in both versions (one JSON document, or JSONL with $set updates): prompts, replies, "
        "thoughts, tool calls with their results and status, model, token counts, the summary as title, the "
        "project folder from projects.json"
    ),
    not_read=(
        "logs.json (prompt history only), checkpoints saved by /chat save, tool results' display text "
        "(resultDisplay); a rewound history is kept as it was recorded"
    ),
)
