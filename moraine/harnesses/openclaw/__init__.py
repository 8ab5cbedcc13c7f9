"""OpenClaw: the self-hosted agent gateway, one session tree per conversation under each agent's folder."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness

HARNESS = Harness(
    name="openclaw",
    display_name="OpenClaw",
    adapter="moraine.harnesses._shared.openclaw_format:OpenClawAdapter",
    usage="per assistant message (`usage`: input, output, cacheRead, cacheWrite)",
    locations=(
        in_home("openclaw", "~/.openclaw/agents/*/sessions/*.jsonl", "~/.openclaw/agents"),
        in_home(
            "kimi-openclaw",
            "~/.kimi_openclaw/agents/*/sessions/*.jsonl",
            "~/.kimi_openclaw/agents",
            windows=False,
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
