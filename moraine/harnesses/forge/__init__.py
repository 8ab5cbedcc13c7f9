"""Forge: the terminal coding agent (forgecode), its conversations in one SQLite store under ``~/.forge``."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness, Resume

HARNESS = Harness(
    name="forge",
    display_name="Forge",
    adapter="moraine.harnesses.forge.adapter:ForgeAdapter",
    # 2: cached tokens left out of input (prompt_tokens includes them)
    revision=2,
    usage="per assistant message (its `usage`: `prompt_tokens` includes the `cached_tokens`, left out of input)",
    locations=(in_home("forge", "~/.forge/.forge.db", "~/.forge", "forge_sqlite"),),
    resume=Resume(("forge", "--conversation-id")),
    readers={"forge_sqlite": "moraine.harnesses.forge.reader:ForgeReader"},
    reads=(
        "conversations (SQLite, read-only): title, user and assistant messages, reasoning details, tool calls and "
        "results with errors, per-message model and token usage, the cwd from the system prompt"
    ),
    not_read=(
        "the system prompt's text, the conversation metrics column (session totals), task sub-conversations' "
        "links to their parent"
    ),
)
