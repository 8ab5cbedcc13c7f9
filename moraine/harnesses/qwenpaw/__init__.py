"""QwenPaw (formerly CoPaw): agent workspaces under ``~/.qwenpaw/workspaces/`` and ``~/.copaw/workspaces/``."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness

__all__ = ["HARNESS"]

_READER = "qwenpaw_session"

HARNESS = Harness(
    name="qwenpaw",
    display_name="QwenPaw",
    adapter="moraine.harnesses.qwenpaw.adapter:QwenPawAdapter",
    locations=tuple(
        in_home(source, f"{root}/*/sessions/**/*.json", root, reader=_READER)
        for source, root in (("qwenpaw", "~/.qwenpaw/workspaces"), ("qwenpaw-copaw", "~/.copaw/workspaces"))
    ),
    readers={_READER: "moraine.harnesses.qwenpaw.reader:QwenPawSessionReader"},
    reads=(
        "session files of every workspace and channel: prompts, replies, thinking, tool calls (input or "
        "raw_input) and the tool results that system messages carry, local timestamps"
    ),
    not_read=(
        "titles, models and token usage (not recorded in session files); a memory the agent compressed or "
        "cleared is not re-read (entries are read by position); no resume command"
    ),
)
