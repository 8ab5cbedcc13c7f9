"""Antigravity (Google's agent IDE) and the Antigravity CLI: conversations under ``~/.gemini/antigravity*/``."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness

__all__ = ["HARNESS"]

_IDE = "~/.gemini/antigravity"
_CLI = "~/.gemini/antigravity-cli"
_READER = "antigravity_conversation"

HARNESS = Harness(
    name="antigravity",
    display_name="Antigravity",
    adapter="moraine.harnesses.antigravity.adapter:AntigravityAdapter",
    locations=(
        in_home("antigravity", f"{_IDE}/conversations/*.db", _IDE, reader=_READER),
        in_home("antigravity-cli", f"{_CLI}/conversations/*.db", _CLI, reader=_READER),
        in_home("antigravity-cli-pb", f"{_CLI}/conversations/*.pb", _CLI, reader=_READER),
    ),
    readers={_READER: "moraine.harnesses.antigravity.reader:AntigravityReader"},
    reads=(
        "what is kept in the clear: the CLI's typed prompts (history.jsonl rows with a conversationId, workspace "
        "as the session directory) and the brain/<id>/ task, plan and walkthrough documents with their metadata"
    ),
    not_read=(
        "the conversation steps (conversations/<id>.db: protobuf rows without a published schema; replies, "
        "reasoning, tool calls, token usage and models are in them), AES-encrypted .pb and implicit/ transcripts "
        "(no key without configuration), annotations, prompts of history rows without a conversationId; no "
        "resume command (none documented that takes a conversation id)"
    ),
)
