"""Cursor: agent-transcript JSONL files, and the IDE's chat store (``state.vscdb``, SQLite)."""

from moraine.harness_api.declaration import Harness, Location

_STORE = "Cursor/User/globalStorage/state.vscdb"

HARNESS = Harness(
    name="cursor",
    display_name="Cursor",
    adapter="moraine.harnesses.cursor.adapter:CursorAdapter",
    locations=(
        Location(
            "cursor",
            "~/.cursor/projects/*/agent-transcripts/**/*.jsonl",
            windows_glob="~/.cursor/projects/*/agent-transcripts/**/*.jsonl",
        ),
        Location(
            "cursor-sqlite",
            f"~/.config/{_STORE}",
            reader="cursor_sqlite",
            macos_glob=f"~/Library/Application Support/{_STORE}",
            windows_glob=f"$APPDATA/{_STORE}",
        ),
    ),
    readers={"cursor_sqlite": "moraine.harnesses.cursor.reader:CursorSqliteReader"},
    reads="agent transcripts; chat composers and their bubbles (text, thinking, tool calls) from the chat store",
    not_read="per-workspace state databases, inline completions",
)
