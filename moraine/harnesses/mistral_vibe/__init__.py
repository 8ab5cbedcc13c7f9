"""Mistral Vibe: one folder per session under ``~/.vibe/logs/session/`` (``messages.jsonl`` and ``meta.json``)."""

from moraine.harness_api.declaration import Harness, Location

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="mistral-vibe",
    display_name="Mistral Vibe",
    adapter="moraine.harnesses.mistral_vibe.adapter:MistralVibeAdapter",
    locations=(
        Location(
            source="mistral-vibe",
            glob="~/.vibe/logs/session/*/messages.jsonl",
            reader="vibe_session",
        ),
    ),
    readers={"vibe_session": "moraine.harnesses.mistral_vibe.session_reader:VibeSessionReader"},
    reads=(
        "user, assistant (reasoning_content), tool and system messages, tool calls linked to their responses; "
        "title, working directory, model, start and parent session from meta.json"
    ),
    not_read=(
        "per-message times (none recorded: events carry the session start), token usage (meta.json keeps session totals only), git branch and "
        "commit, no resume command (not confirmed from the facts read)"
    ),
)
