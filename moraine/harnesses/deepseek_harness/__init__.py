"""DeepSeek Harness (``dsh``): an agent harness for DeepSeek models, one event log per session."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness

HARNESS = Harness(
    name="deepseek-harness",
    display_name="DeepSeek Harness",
    adapter="moraine.harnesses.deepseek_harness.adapter:DeepSeekHarnessAdapter",
    usage="per assistant message (its `usage`)",
    locations=(in_home("deepseek-harness", "~/.dsh/sessions/*/*/session.jsonl", "~/.dsh/sessions"),),
    reads=(
        "session logs (version 0): header (id, cwd, parent), user messages (injected ones as system), assistant "
        "messages with reasoning, text and tool calls, model and token usage, tool results with errors, "
        "non-completed turn ends, titles, compaction summaries"
    ),
    not_read=(
        "zstd-compressed logs (session.jsonl.zstd), streaming chunks (duplicates of the messages), approvals, "
        "hooks, plans, todos, requests; a $DSH_HOME other than ~/.dsh; no resume command"
    ),
)
