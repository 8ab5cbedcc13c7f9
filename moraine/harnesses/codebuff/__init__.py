"""Codebuff (formerly Manicode): a terminal coding agent, one folder of JSON files per chat."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness

_CHATS = in_home(
    "codebuff",
    "~/.config/manicode/projects/*/chats/*/chat-messages.json",
    "~/.config/manicode/projects",
    "codebuff_json",
)

HARNESS = Harness(
    name="codebuff",
    display_name="Codebuff",
    locations=(_CHATS,),
    adapter="moraine.harnesses.codebuff.adapter:CodebuffAdapter",
    readers={"codebuff_json": "moraine.harnesses.codebuff.reader:CodebuffReader"},
    reads=(
        "chat-messages.json: user prompts, assistant text and reasoning, tool calls with their outputs, plans; "
        "message times (ISO, or wall-clock times on the chat folder's day in the machine's local time zone)"
    ),
    not_read=(
        "run-state.json (agent type, credits, skills), chat-meta.json, sub-agent blocks, ask-user questions, "
        "images, error messages; no model (chosen server-side), no resume command"
    ),
)
