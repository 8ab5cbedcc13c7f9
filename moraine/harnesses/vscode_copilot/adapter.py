"""VS Code Copilot chat (sources ``vscode-copilot*``): one chat request -> normalized events (the request's
format: ``moraine.harnesses._shared.vscode_chat``)."""

from __future__ import annotations

from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harnesses._shared.vscode_chat import request_events
from moraine.harnesses.vscode_copilot.reader import REQUEST_RECORD

__all__ = ["VscodeCopilotAdapter"]


class VscodeCopilotAdapter(TaggedAdapter):
    """Normalize the chat requests ``VscodeChatReader`` yields."""

    harness = "vscode-copilot"
    kinds = {REQUEST_RECORD: request_events}
    untagged = "not a VS Code chat request record"
