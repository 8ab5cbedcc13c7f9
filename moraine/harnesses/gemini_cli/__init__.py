"""Gemini CLI (Google): chat files under ``~/.gemini/tmp/<project>/chats/``, a JSON document or JSONL each."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness, Resume

__all__ = ["HARNESS"]

_TMP = "~/.gemini/tmp"
_CHATS = f"{_TMP}/*/chats"

HARNESS = Harness(
    name="gemini-cli",
    display_name="Gemini CLI",
    adapter="moraine.harnesses.gemini_cli.adapter:GeminiCliAdapter",
    # 2: issue 46's usage: cached input left out of input, thoughts added to output
    # 3: a reply's usage goes on its text or first tool call, with that line's (final) counts, not on its thoughts
    revision=3,
    usage=(
        "per reply (`tokens`: cached input is left out of input, thoughts are added to output), on its text or first "
        "tool call, written once the model call ended (a version with only thoughts has counts still growing); a "
        "reply of thoughts alone, or counts written after all its parts were read, are not read"
    ),
    locations=(
        in_home("gemini-cli", f"{_CHATS}/session-*.json", _TMP, reader="gemini_json"),
        in_home("gemini-cli-jsonl", f"{_CHATS}/session-*.jsonl", _TMP),
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
