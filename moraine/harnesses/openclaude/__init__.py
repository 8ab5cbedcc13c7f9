"""OpenClaude: Claude Code-format transcripts under ``~/.openclaude/projects/``."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="openclaude",
    display_name="OpenClaude",
    adapter="moraine.harnesses.openclaude.adapter:OpenClaudeAdapter",
    usage="per API message, as Claude Code's (`message.usage`, a streamed message's repeats counted once)",
    locations=(in_home("openclaude", "~/.openclaude/projects/**/*.jsonl", "~/.openclaude/projects"),),
    reads="everything Claude Code's adapter reads (the same transcript format), sub-agent transcripts included",
    not_read="no resume command (OpenClaude's flags are not documented here; Claude Code's are not assumed)",
)
