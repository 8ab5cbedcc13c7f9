"""Cortex Code: Snowflake's coding agent CLI (``cortex``), one JSON conversation per session."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness, Resume

HARNESS = Harness(
    name="cortex-code",
    display_name="Cortex Code",
    adapter="moraine.harnesses.cortex_code.adapter:CortexAdapter",
    locations=(
        in_home(
            "cortex-code",
            "~/.snowflake/cortex/conversations/*.json",
            "~/.snowflake/cortex/conversations",
            "cortex_json",
        ),
    ),
    readers={"cortex_json": "moraine.harnesses.cortex_code.reader:CortexReader"},
    resume=Resume(("cortex", "--resume")),
    reads=(
        "conversations with inline history or a .history.jsonl sidecar: title, working directory, user and "
        "assistant text, injected text as system, tool calls and results with status, user message times"
    ),
    not_read=(
        "backups (*.back.*.json), connection and git branch, permission cache; assistant message times and "
        "model (not recorded: events take the last time seen); a sidecar-only change is read on the next "
        "change of the .json file or rescan"
    ),
)
