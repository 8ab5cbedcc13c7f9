"""Zed: the agent panel's threads, kept in ``threads/threads.db`` in Zed's data folder."""

from moraine.harness_api.declaration import Harness, Location

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="zed",
    display_name="Zed",
    adapter="moraine.harnesses.zed.adapter:ZedAdapter",
    usage="per assistant message (the thread's request token usage)",
    locations=(
        Location(
            source="zed",
            glob="~/.local/share/zed/threads/threads.db",
            reader="zed_threads",
            macos_glob="~/Library/Application Support/Zed/threads/threads.db",
            windows_glob="~/AppData/Local/Zed/threads/threads.db",
        ),
    ),
    readers={"zed_threads": "moraine.harnesses.zed.threads_reader:ZedThreadsReader"},
    reads=(
        "current and legacy (0.1/0.2) thread documents, JSON or zstd: user messages, agent text, thinking, tool "
        "calls and results (errors); summary as title, first folder, parent thread, model, per-request usage"
    ),
    not_read=(
        "mentions, images and context attachments (only their text), per-message times (the thread's update "
        "time is used), the text-thread (assistant context) store, no resume command (Zed has none)"
    ),
)
