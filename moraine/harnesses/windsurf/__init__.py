"""Windsurf: the chat data its workspaces keep in ``state.vscdb`` (a VS Code fork's state database)."""

from __future__ import annotations

from moraine.harnesses._shared.vscode import user_location
from moraine.harness_api.declaration import Harness

HARNESS = Harness(
    name="windsurf",
    display_name="Windsurf",
    adapter="moraine.harnesses.windsurf.adapter:WindsurfAdapter",
    locations=(user_location("windsurf", "Windsurf", "workspaceStorage/*/state.vscdb", "windsurf_chatdata"),),
    readers={"windsurf_chatdata": "moraine.harnesses.windsurf.reader:WindsurfChatReader"},
    reads=(
        "workspaceStorage/<hash>/state.vscdb, ItemTable keys aiChat.chatdata and "
        "workbench.panel.aichat.view.aichat.chatdata: VS Code-shaped chat sessions (prompts, answers, thinking, "
        "tool invocations, edited files, titles) and chat tabs (titled user/assistant bubbles); the workspace "
        "folder from workspace.json"
    ),
    not_read=(
        "Cascade's own trajectories (protobuf files under ~/.codeium/windsurf, not in the state database); "
        "token usage (not in the chat data); no resume command"
    ),
)
