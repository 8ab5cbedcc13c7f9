"""Poolside: the Poolside Agent CLI (``pool``), one trajectory file of events per session."""

from moraine.harness_api.declaration import Harness, Location

_TRAJECTORIES = "trajectories/trajectory-*.ndjson"

HARNESS = Harness(
    name="poolside",
    display_name="Poolside",
    adapter="moraine.harnesses.poolside.adapter:PoolsideAdapter",
    usage="per model call (the usage update before its reply)",
    locations=(
        Location(
            source="poolside",
            glob=f"~/.local/state/poolside/{_TRAJECTORIES}",
            watch_root="~/.local/state/poolside/trajectories",
            macos_glob=f"~/Library/Application Support/poolside/{_TRAJECTORIES}",
            macos_watch_root="~/Library/Application Support/poolside/trajectories",
            windows_glob=f"~/AppData/Roaming/poolside/{_TRAJECTORIES}",
            windows_watch_root="~/AppData/Roaming/poolside/trajectories",
        ),
    ),
    reads=(
        "trajectory events: prompts, thoughts, tool calls and results with errors, the response that ends each "
        "turn, model and per-inference token usage, session exit and error, the working directory"
    ),
    not_read=(
        "start markers, streaming deltas, the session metadata sidecar, shell status calls' link to their shell "
        "command; no title (the first prompt stands for it) and no resume command"
    ),
)
