"""Shelley: a coding agent with a web UI, its conversations in one SQLite store under ``~/.config/shelley``."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness

HARNESS = Harness(
    name="shelley",
    locations=(in_home("shelley", "~/.config/shelley/shelley.db", "~/.config/shelley", "shelley_sqlite"),),
    readers={"shelley_sqlite": "moraine.harnesses.shelley.reader:ShelleyReader"},
    display_name="Shelley",
    adapter="moraine.harnesses.shelley.adapter:ShelleyAdapter",
    usage="per assistant message (its `usage`)",
    reads=(
        "conversations (SQLite, read-only): slug as title, cwd, user and agent messages, thinking, tool uses and "
        "results with errors, per-message model and token usage"
    ),
    not_read=(
        "redacted thinking and web search payloads, sub-conversations' links to their parent, user_data; "
        "no resume command"
    ),
)
