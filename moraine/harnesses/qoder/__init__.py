"""Qoder (IDE and CLI) and QoderWork: Claude Code-style transcripts under their ``projects/`` folders."""

from moraine.harnesses._locations import in_home
from moraine.harnesses.declaration import Harness, Location

__all__ = ["HARNESS"]

_SHARED = "Qoder/SharedClientCache/cli/projects"

HARNESS = Harness(
    name="qoder",
    display_name="Qoder",
    adapter="moraine.harnesses.qoder.adapter:QoderAdapter",
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
    reads=(
        "transcripts in Claude Code's format (prompts, replies, thinking, tool calls and results, models, cwd, "
        "sub-agent transcripts), the <session>-session.json sidecar's title, working directory and fork parent"
    ),
    not_read="no resume command (none documented that takes a session id)",
)
