"""VS Code Copilot chat: the chat sessions VS Code (and Code - Insiders, VSCodium) keeps per workspace."""

from __future__ import annotations

from moraine.harnesses._shared.vscode import PRODUCTS, product_locations
from moraine.harness_api.declaration import Harness

# (source-name suffix, folder below User/): per-workspace sessions, and empty-window/transferred ones.
_FOLDERS = (
    ("", "workspaceStorage/*/chatSessions/*.json*"),
    ("-global", "globalStorage/*ChatSessions/*.json*"),
)

HARNESS = Harness(
    name="vscode-copilot",
    display_name="VS Code Copilot",
    adapter="moraine.harnesses.vscode_copilot.adapter:VscodeCopilotAdapter",
    usage=(
        "per request (its result metadata's prompt and output tokens); the prompt count includes any cached tokens, "
        "which the trace does not count apart"
    ),
    locations=product_locations("vscode-copilot", PRODUCTS, _FOLDERS, "vscode_chat"),
    readers={"vscode_chat": "moraine.harnesses.vscode_copilot.reader:VscodeChatReader"},
    reads=(
        "chatSessions/<id>.json snapshots and <id>.jsonl operation logs (workspace, empty-window and transferred "
        "sessions): prompts, markdown answers, thinking, tool invocations with their terminal commands, linked "
        "and edited files and recorded input/output, custom titles (else the title in the workspace's "
        "chat.ChatSessionStore.index), workspace folder, resolved model, prompt and output tokens"
    ),
    not_read=(
        "inline chat, edit-session checkpoints (chatEditingSessions), the Copilot extension's own transcripts, "
        "confirmations and progress parts; terminal exit codes are not in the serialized tool data we read; a "
        "session VS Code moves from <id>.json to <id>.jsonl after we read the .json is read again from the log "
        "(its requests twice); no resume command (VS Code has none for a chat session)"
    ),
)
