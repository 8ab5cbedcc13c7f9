"""iFlow CLI: Claude Code-style transcripts under ``~/.iflow/projects/<project>/``."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="iflow",
    display_name="iFlow CLI",
    adapter="moraine.harnesses.iflow.adapter:IflowAdapter",
    usage="per API message, as Claude Code's; the counts iFlow writes are zero",
    locations=(in_home("iflow", "~/.iflow/projects/*/session-*.jsonl", "~/.iflow/projects"),),
    reads=(
        "session transcripts in Claude Code's format (prompts, replies, thinking, tool calls deduplicated across "
        "streaming snapshots, tool results with status, models, cwd), continued sessions linked to their parent"
    ),
    not_read=(
        "token usage (the usage iFlow records is zero), no title is recorded; no resume command (none "
        "documented that takes a session id)"
    ),
)
