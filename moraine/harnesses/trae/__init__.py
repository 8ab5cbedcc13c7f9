"""Trae (the IDE): the agent sessions its workspaces and global state keep in ``state.vscdb``."""

from __future__ import annotations

from moraine.harnesses._shared.vscode import product_locations
from moraine.harness_api.declaration import Harness

_PRODUCTS = (("", "Trae"), ("-cn", "Trae CN"))
_DATABASES = (("", "workspaceStorage/*/state.vscdb"), ("-global", "globalStorage/state.vscdb"))

HARNESS = Harness(
    name="trae",
    display_name="Trae",
    adapter="moraine.harnesses.trae.adapter:TraeAdapter",
    readers={"trae_sessions": "moraine.harnesses.trae.reader:TraeSessionsReader"},
    locations=product_locations("trae", _PRODUCTS, _DATABASES, "trae_sessions"),
    reads=(
        "state.vscdb (workspace and global), ItemTable key memento/icube-ai-agent-storage: each session's user and "
        "assistant messages (agent task content where the text is empty), times, model; workspace.json's folder"
    ),
    not_read=(
        "newer Trae builds' ModularData/ai-agent/database.db (not a plain SQLite file: encrypted); tool calls and "
        "file edits (not in the session list), token usage; no resume command"
    ),
)
