"""MiMoCode: an OpenCode fork keeping OpenCode's SQLite store under ``~/.local/share/mimocode``."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness

HARNESS = Harness(
    name="mimocode",
    display_name="MiMoCode",
    adapter="moraine.harnesses.mimocode.adapter:MiMoCodeAdapter",
    locations=(
        in_home(
            "mimocode",
            "~/.local/share/mimocode/mimocode.db",
            "~/.local/share/mimocode",
            "mimocode_sqlite",
            windows=False,
        ),
    ),
    readers={"mimocode_sqlite": "moraine.harnesses._shared.opencode_format.reader:OpenCodeReader"},
    reads="as OpenCode: sessions with titles, directories and sub-agent parents, message parts (text, reasoning, tools)",
    not_read=(
        "the older JSON file storage (storage/session_diff, message, part folders), per-message token usage; "
        "no resume command"
    ),
)
