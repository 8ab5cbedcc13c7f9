"""OpenCode: its SQLite store (``~/.local/share/opencode/opencode*.db``)."""

from moraine.harness_api.declaration import Harness, Location, Resume

HARNESS = Harness(
    name="opencode",
    display_name="OpenCode",
    adapter="moraine.harnesses._shared.opencode_format.adapter:OpenCodeAdapter",
    locations=(
        Location(
            "opencode",
            "~/.local/share/opencode/opencode*.db",
            reader="opencode_sqlite",
            windows_glob="~/.local/share/opencode/opencode*.db",
        ),
    ),
    readers={"opencode_sqlite": "moraine.harnesses._shared.opencode_format.reader:OpenCodeReader"},
    resume=Resume(("opencode", "--session")),
    reads="message parts: text, reasoning, tool calls and results, step ends, compactions; titles, sub-agents",
    not_read="the older per-file JSON storage (storage/session, storage/message)",
)
