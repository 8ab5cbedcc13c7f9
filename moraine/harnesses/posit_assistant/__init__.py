"""Posit Assistant: the AI assistant of RStudio and Posit's tools, one folder per conversation and workspace."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness

HARNESS = Harness(
    name="posit-assistant",
    display_name="Posit Assistant",
    adapter="moraine.harnesses.posit_assistant.adapter:PositAssistantAdapter",
    usage="per assistant message (`usage`: inputTokens, outputTokens, cache reads and writes)",
    locations=(
        in_home(
            "posit-assistant",
            "~/.posit/assistant/workspaces/**/conversation.json",
            "~/.posit/assistant/workspaces",
            "posit_assistant_json",
        ),
    ),
    readers={"posit_assistant_json": "moraine.harnesses.posit_assistant.reader:PositAssistantReader"},
    reads=(
        "conversations (schemaVersion 3): title or summary, workspace path, model, user and assistant messages "
        "with reasoning, tool calls and results, per-message model, time and token usage, sub-agents linked to "
        "their parent, abandoned branches as side chains"
    ),
    not_read=(
        "Positron Assistant's chat sessions in Positron's User folder (a VS Code-style store), the conversations "
        "index.json, attached files; no resume command"
    ),
)
