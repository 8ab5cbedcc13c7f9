"""Claude.ai: conversations of a Claude.ai data export, read by ``moraine import PATH`` (never watched)."""

from moraine.harness_api.declaration import Harness

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="claude-ai",
    display_name="Claude.ai",
    adapter="moraine.harnesses.claude_ai.adapter:ClaudeAiAdapter",
    readers={"claude_ai_export": "moraine.harnesses._shared.export:ExportReader"},
    importer=True,
    reads=(
        "conversations.json of a data export (.zip, folder or file): prompts with their attachments' "
        "extracted text, replies, thinking, tool calls and results, conversation names and times"
    ),
    not_read="models and token usage (not exported), files and images themselves; no resume command",
)
