"""Command Code: a terminal coding agent, one JSONL transcript and a .meta.json sidecar per session."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness

_TRANSCRIPTS = in_home("commandcode", "~/.commandcode/projects/*/*.jsonl", "~/.commandcode/projects")

HARNESS = Harness(
    name="commandcode",
    locations=(_TRANSCRIPTS,),
    adapter="moraine.harnesses.commandcode.adapter:CommandCodeAdapter",
    display_name="Command Code",
    reads=(
        "transcripts: user and assistant messages, reasoning, tool calls and results, times and cwd; the "
        "sidecar's title and project path"
    ),
    not_read="checkpoints and prompt history files, git branch beyond provenance, token usage; no resume command",
)
