"""Warp: the agentic terminal; its agent conversations' queries in its local SQLite store."""

from moraine.harness_api.declaration import Harness, Location

_MAC = "~/Library/Group Containers/2BBY89MBSN.dev.warp/Library/Application Support/dev.warp.Warp-Stable"

HARNESS = Harness(
    name="warp",
    display_name="Warp",
    adapter="moraine.harnesses.warp.adapter:WarpAdapter",
    locations=(
        Location(
            source="warp",
            glob="~/.local/state/warp-terminal/warp.sqlite",
            watch_root="~/.local/state/warp-terminal",
            reader="warp_sqlite",
            macos_glob=f"{_MAC}/warp.sqlite",
            macos_watch_root=_MAC,
            windows_glob="~/AppData/Local/warp/Warp/data/warp.sqlite",
            windows_watch_root="~/AppData/Local/warp/Warp/data",
        ),
    ),
    readers={"warp_sqlite": "moraine.harnesses.warp.reader:WarpReader"},
    reads="agent conversations (SQLite, read-only): each query's text, time, model and working directory",
    not_read=(
        "the agent's replies and tool calls (Warp does not keep them locally, only per-tool counts and token "
        "totals in conversation_data), so no answers, file touches or per-call usage; no title, no resume"
    ),
)
