"""Read Windsurf's chat state: the ``ItemTable`` chat-data keys of each workspace's ``state.vscdb``."""

from __future__ import annotations

from moraine.harnesses._shared.vscode_state import ItemTableReader

__all__ = ["CHATDATA_RECORD", "WindsurfChatReader"]

CHATDATA_RECORD = "windsurf_chatdata"


class WindsurfChatReader(ItemTableReader):
    """Yield a snapshot of Windsurf's chat data whenever it changes."""

    keys = ("aiChat.chatdata", "workbench.panel.aichat.view.aichat.chatdata")
    record = CHATDATA_RECORD
