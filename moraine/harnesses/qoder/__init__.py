"""Qoder (IDE and CLI) and QoderWork: Claude Code-style transcripts under their ``projects/`` folders."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness, Location, Resume

__all__ = ["HARNESS"]

_SHARED = "Qoder/SharedClientCache/cli/projects"

HARNESS = Harness(
    name="qoder",
    display_name="Qoder",
    adapter="moraine.harnesses.qoder.adapter:QoderAdapter",
    usage="per API message, as Claude Code's (`message.usage`, a streamed message's repeats counted once)",
    locations=(
        in_home("qoder", "~/.qoder/projects/**/*.jsonl", "~/.qoder/projects"),
        in_home("qoderwork", "~/.qoderwork/projects/**/*.jsonl", "~/.qoderwork/projects"),
        Location(
            source="qoder-shared",
            glob=f"~/.config/{_SHARED}/**/*.jsonl",
            macos_glob=f"~/Library/Application Support/{_SHARED}/**/*.jsonl",
            windows_glob=f"~/AppData/Roaming/{_SHARED}/**/*.jsonl",
        ),
    ),
    resume=Resume(("qodercli", "--resume")),
    reads=(
        "transcripts in Claude Code's format (prompts, replies, thinking, tool calls and results, models, cwd, "
        "sub-agent transcripts), the <session>-session.json sidecar's title, working directory and fork parent"
    ),
    not_read="<session>/state.json (session state), QODER_CONFIG_DIR when it moves ~/.qoder",
)
