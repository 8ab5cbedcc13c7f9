"""Kilo Code: the legacy VS Code extension's task folders and the current shared store of its CLI and extension.

The extension was Cline-derived (``kilocode.kilo-code`` task folders) until Kilo rebuilt it on OpenCode; since then
the extension and the Kilo CLI keep sessions in ``~/.local/share/kilo/kilo.db``, OpenCode's SQLite schema.
"""

from __future__ import annotations

from moraine.harnesses._shared.cline_family.locations import task_locations
from moraine.harness_api.declaration import Harness, Location

HARNESS = Harness(
    name="kilo",
    display_name="Kilo Code",
    adapter="moraine.harnesses.kilo.adapter:KiloAdapter",
    # 2: a step's reasoning tokens added to its output
    revision=2,
    usage=(
        "per model step (a `step-finish` part's tokens: input without the cached, output without the reasoning, "
        "which is added to it)"
    ),
    locations=(
        Location(source="kilo", glob="~/.local/share/kilo/kilo.db", reader="opencode_sqlite"),
        *task_locations("kilo-legacy", "kilocode.kilo-code"),
    ),
    reads=(
        "kilo.db (OpenCode's schema: sessions with titles and directories, text, reasoning, tool parts with "
        "results, step ends with their token counts) and the legacy extension's tasks/<id>/ui_messages.json "
        "as for Cline (the model from the request's environment details)"
    ),
    not_read=(
        "the pre-SQLite storage/ JSON files, costs, the legacy api_conversation_history.json "
        "and task_metadata.json file lists; no resume command"
    ),
)
