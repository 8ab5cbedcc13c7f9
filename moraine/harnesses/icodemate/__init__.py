"""iCodeMate: an OpenCode fork keeping OpenCode's SQLite store under ``~/.local/share/icodemate``."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness

_STORE = in_home(
    "icodemate",
    "~/.local/share/icodemate/icodemate.db",
    "~/.local/share/icodemate",
    "icodemate_sqlite",
    windows=False,
)

HARNESS = Harness(
    name="icodemate",
    display_name="iCodeMate",
    readers={"icodemate_sqlite": "moraine.harnesses._shared.opencode_format.reader:OpenCodeReader"},
    locations=(_STORE,),
    adapter="moraine.harnesses.icodemate.adapter:ICodeMateAdapter",
    reads="as OpenCode: sessions with titles, directories and sub-agent parents, message parts (text, reasoning, tools)",
    not_read="the JSON file storage (storage/session_diff), per-message token usage; no resume command",
)
