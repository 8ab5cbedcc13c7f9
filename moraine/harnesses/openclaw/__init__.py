"""OpenClaw: the self-hosted agent gateway, one session tree per conversation under each agent's folder."""

from moraine.harnesses.declaration import Harness, Location

HARNESS = Harness(
    name="openclaw",
    display_name="OpenClaw",
    adapter="moraine.harnesses.openclaw.adapter:OpenClawAdapter",
    locations=(
        Location(
            source="openclaw",
            glob="~/.openclaw/agents/*/sessions/*.jsonl",
            watch_root="~/.openclaw/agents",
            windows_glob="~/.openclaw/agents/*/sessions/*.jsonl",
            windows_watch_root="~/.openclaw/agents",
        ),
        Location(
            source="kimi-openclaw",
            glob="~/.kimi_openclaw/agents/*/sessions/*.jsonl",
            watch_root="~/.kimi_openclaw/agents",
        ),
    ),
    reads=(
        "session trees (pi schema v3): user, assistant, thinking, tool calls (toolCall and tool_use blocks) and "
        "results, model changes, compactions; per-message model and token usage; the header's session id and cwd"
    ),
    not_read=(
        "archived copies (*.jsonl.reset.*, *.jsonl.deleted.*, *.jsonl.full.bak), the agents' sessions.json "
        "index, per-message cost; no resume command (sessions belong to the gateway's chat channels)"
    ),
)
