"""Omnigent: the agent orchestrator's single SQLite store, ``~/.omnigent/chat.db``."""

from moraine.harness_api.declaration import Harness, Location

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="omnigent",
    display_name="Omnigent",
    adapter="moraine.harnesses.omnigent.adapter:OmnigentAdapter",
    locations=(Location(source="omnigent", glob="~/.omnigent/chat.db", reader="omnigent_sqlite"),),
    readers={"omnigent_sqlite": "moraine.harnesses.omnigent.chat_reader:OmnigentChatReader"},
    reads=(
        "conversation items of both schema generations (text or blob ids, named or coded types): messages, "
        "function calls and outputs, reasoning summaries, compactions, errors and commands as system text; "
        "title or sub-agent name, workspace (inherited from the root), model override, parent conversation"
    ),
    not_read=(
        "session_usage totals (per session, zstd-framed), item status (a streaming item is read as first "
        "stored), archived flags, OMNIGENT_DATA_DIR elsewhere than ~/.omnigent (configure the glob), no resume"
    ),
)
