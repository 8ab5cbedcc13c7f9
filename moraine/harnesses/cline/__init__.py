"""Cline: the task folders of its VS Code extension (``saoudrizwan.claude-dev``, in VS Code and its forks) and of
its home-data root ``~/.cline/data`` (the same ``tasks/<id>/`` layout)."""

from __future__ import annotations

from moraine.harnesses._shared.cline_family.locations import (
    API_READER,
    READER,
    api_history_locations,
    task_locations,
)
from moraine.harness_api.declaration import Harness, Location

_HOME_TASKS = "~/.cline/data/tasks/*/ui_messages.json"
_HOME_HISTORIES = "~/.cline/data/tasks/*/api_conversation_history.json"

HARNESS = Harness(
    name="cline",
    display_name="Cline",
    adapter="moraine.harnesses.cline.adapter:ClineAdapter",
    usage=(
        "per API request (its `api_req_started` record's tokens in, out, cache reads and writes), as the provider "
        "handler reported them: Anthropic-style handlers leave cached input out of tokens in, several OpenAI-style "
        "ones (OpenAI-compatible, DeepSeek, xAI) leave it in, and the record does not say which"
    ),
    locations=(
        *task_locations("cline", "saoudrizwan.claude-dev"),
        Location(source="cline-home", glob=_HOME_TASKS, reader=READER, windows_glob=_HOME_TASKS),
        *api_history_locations("cline", "saoudrizwan.claude-dev"),
        Location(
            source="cline-home-api", glob=_HOME_HISTORIES, reader=API_READER, windows_glob=_HOME_HISTORIES
        ),
    ),
    readers={
        READER: "moraine.harnesses._shared.cline_family.reader:ClineTaskReader",
        API_READER: "moraine.harnesses._shared.cline_family.api_history:ClineApiHistoryReader",
    },
    reads=(
        "tasks/<id>/ui_messages.json: the task and feedback prompts, responses, reasoning, completion results, "
        "follow-up questions, file tool payloads (path, diff, read content), commands and their output, MCP calls "
        "and responses, per-request token counts, the working directory from the request's environment details; "
        "the model from task_metadata.json; a task folder without ui_messages.json from its "
        "api_conversation_history.json (prompts, replies, thinking, tool calls and results verbatim; the "
        "environment details as system text)"
    ),
    not_read=(
        "api_conversation_history.json beside ui_messages.json (the same conversation as sent to the model), the "
        "task history index in "
        "VS Code's state (its task text is the first prompt), checkpoints, browser screenshots, costs; the Cline "
        "CLI 3.x sessions (~/.cline/data/sessions/<id>/, another layout); no resume command"
    ),
)
