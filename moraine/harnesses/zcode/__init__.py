"""ZCode: a terminal coding agent, its sessions in one SQLite store under ``~/.zcode/cli/db``."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness

READS = (
    "sessions (SQLite, read-only): title, directory, user and assistant text, thinking, tool calls and results "
    "(content blocks or OpenCode-style tool parts), per-message model and times"
)
NOT_READ = (
    "token usage (model_usage rows are per turn, not per message), system messages; "
    "the last assistant message of a session waits until the session is idle for 120 s; no resume command"
)

HARNESS = Harness(
    name="zcode",
    display_name="ZCode",
    readers={"zcode_sqlite": "moraine.harnesses.zcode.reader:ZCodeReader"},
    locations=(in_home("zcode", "~/.zcode/cli/db/db.sqlite", "~/.zcode/cli/db", "zcode_sqlite"),),
    adapter="moraine.harnesses.zcode.adapter:ZCodeAdapter",
    reads=READS,
    not_read=NOT_READ,
)
