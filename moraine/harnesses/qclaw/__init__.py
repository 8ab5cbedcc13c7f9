"""QClaw: an OpenClaw distribution writing the same session trees under ``~/.qclaw``."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness

HARNESS = Harness(
    name="qclaw",
    display_name="QClaw",
    adapter="moraine.harnesses.qclaw.adapter:QClawAdapter",
    usage="per assistant message (`usage`: input, output, cacheRead, cacheWrite)",
    locations=(in_home("qclaw", "~/.qclaw/agents/*/sessions/*.jsonl", "~/.qclaw/agents"),),
    reads="as OpenClaw: session trees with messages, thinking, tool calls and results, model and token usage",
    not_read="as OpenClaw: archived copies, the sessions.json index, cost; no resume command",
)
