"""Roo Code: the VS Code extension's task folders (``rooveterinaryinc.roo-cline``), in VS Code and its forks."""

from __future__ import annotations

from moraine.harnesses._shared.cline_family.locations import task_locations
from moraine.harness_api.declaration import Harness

HARNESS = Harness(
    name="roo-code",
    display_name="Roo Code",
    adapter="moraine.harnesses.roo_code.adapter:RooCodeAdapter",
    usage=(
        "per API request (its `api_req_started` record's tokens in, out, cache reads and writes), as the provider "
        "handler reported them: Anthropic-style handlers leave cached input out of tokens in, several OpenAI-style "
        "ones (OpenAI-compatible, DeepSeek, xAI) leave it in, and the record does not say which"
    ),
    locations=task_locations("roo-code", "rooveterinaryinc.roo-cline"),
    reads=(
        "tasks/<id>/ui_messages.json as for Cline (prompts, responses, reasoning, completion results, file tools, "
        "commands, MCP calls, newTask delegations and their results, per-request token counts, the model and "
        "working directory from the environment details) and history_item.json (workspace, start, parent task)"
    ),
    not_read=(
        "api_conversation_history.json, cumulative totals and cost in history_item.json, the mode and API "
        "profile names, checkpoints; no resume command"
    ),
)
