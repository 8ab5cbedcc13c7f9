"""QClaw: an OpenClaw distribution writing the same session trees under ``~/.qclaw``."""

from moraine.harnesses.declaration import Harness, Location

HARNESS = Harness(
    name="qclaw",
    display_name="QClaw",
    adapter="moraine.harnesses.openclaw.adapter:QClawAdapter",
    locations=(
        Location(
            source="qclaw",
            glob="~/.qclaw/agents/*/sessions/*.jsonl",
            watch_root="~/.qclaw/agents",
            windows_glob="~/.qclaw/agents/*/sessions/*.jsonl",
            windows_watch_root="~/.qclaw/agents",
        ),
    ),
    reads="as OpenClaw: session trees with messages, thinking, tool calls and results, model and token usage",
    not_read="as OpenClaw: archived copies, the sessions.json index, cost; no resume command",
)
