"""VS Code Copilot chat: the chat sessions VS Code (and Code - Insiders, VSCodium) keeps per workspace."""

from __future__ import annotations

from moraine.harnesses.declaration import Harness, Location

_PRODUCTS = (("vscode", "Code"), ("vscode-insiders", "Code - Insiders"), ("vscodium", "VSCodium"))
_FOLDERS = (("", "workspaceStorage/*/chatSessions"), ("-global", "globalStorage/*ChatSessions"))


def _location(prefix: str, product: str, suffix: str, folder: str) -> Location:
    files = f"User/{folder}/*.json*"
    return Location(
        source=f"{prefix}-copilot{suffix}",
        glob=f"~/.config/{product}/{files}",
        reader="vscode_chat",
        macos_glob=f"~/Library/Application Support/{product}/{files}",
        windows_glob=f"~/AppData/Roaming/{product}/{files}",
    )


HARNESS = Harness(
    name="vscode-copilot",
    display_name="VS Code Copilot",
    adapter="moraine.harnesses.vscode_copilot.adapter:VscodeCopilotAdapter",
    locations=tuple(
        _location(prefix, product, suffix, folder)
        for prefix, product in _PRODUCTS
        for suffix, folder in _FOLDERS
    ),
    readers={"vscode_chat": "moraine.harnesses.vscode_copilot.reader:VscodeChatReader"},
    reads=(
        "chatSessions/<id>.json snapshots and <id>.jsonl operation logs (workspace, empty-window and transferred "
        "sessions): prompts, markdown answers, thinking, tool invocations with their terminal commands, linked "
        "and edited files and recorded input/output, custom titles, workspace folder, resolved model, prompt and "
        "output tokens"
    ),
    not_read=(
        "the state.vscdb session index (generated titles), inline chat and edit-session checkpoints, "
        "confirmations and progress parts; terminal exit codes are not in the serialized tool data we read; "
        "no resume command (VS Code has none for a chat session)"
    ),
)
