"""Piebald: a desktop app for coding agents, its chats in one SQLite store (``app.db``)."""

from moraine.harness_api.declaration import Harness, Location

HARNESS = Harness(
    name="piebald",
    display_name="Piebald",
    adapter="moraine.harnesses.piebald.adapter:PiebaldAdapter",
    usage="per assistant message (its token counts)",
    locations=(
        Location(
            source="piebald",
            glob="~/.local/share/piebald/app.db",
            watch_root="~/.local/share/piebald",
            reader="piebald_sqlite",
            macos_glob="~/Library/Application Support/piebald/app.db",
            macos_watch_root="~/Library/Application Support/piebald",
            windows_glob="~/AppData/Roaming/piebald/app.db",
            windows_watch_root="~/AppData/Roaming/piebald",
        ),
    ),
    readers={"piebald_sqlite": "moraine.harnesses.piebald.reader:PiebaldReader"},
    reads=(
        "chats (SQLite, read-only): title, directory, user and assistant text, thinking, tool calls with results "
        "and errors, per-message model and token usage, error endings; branches left behind as side chains"
    ),
    not_read=(
        "deleted chats, sub-agent chats' links to their parent call, attachments and non-text content nodes; "
        "no resume command"
    ),
)
