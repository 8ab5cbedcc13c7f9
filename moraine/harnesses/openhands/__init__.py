"""OpenHands CLI (V1): one JSON file per event under ``~/.openhands/conversations/<id>/events/``, read as one
stream per conversation from its ``base_state.json``."""

from moraine.harness_api.declaration import Harness, Location

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="openhands",
    display_name="OpenHands",
    adapter="moraine.harnesses.openhands.adapter:OpenHandsAdapter",
    locations=(
        Location(
            source="openhands",
            glob="~/.openhands/conversations/*/base_state.json",
            reader="openhands_conversation",
        ),
    ),
    readers={
        "openhands_conversation": "moraine.harnesses.openhands.conversation_reader:OpenHandsConversationReader"
    },
    reads=(
        "user and agent messages, thinking, the thought before each action, tool calls (recorded arguments) and "
        "observations (errors, exit codes), condensations; conversation id, model and workspace from base_state.json"
    ),
    not_read=(
        "token usage and cost (not in the event files read), a title (none recorded: the first prompt is used), "
        "the system prompt and state-update events, TASKS.json, the pre-V1 ~/.openhands/sessions format, no "
        "resume command; events written after base_state.json last changed wait for its next change"
    ),
)
