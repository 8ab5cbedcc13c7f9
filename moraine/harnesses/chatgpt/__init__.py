"""ChatGPT: conversations of a ChatGPT data export, read by ``moraine import PATH`` (never watched)."""

from moraine.harness_api.declaration import Harness

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="chatgpt",
    display_name="ChatGPT",
    adapter="moraine.harnesses.chatgpt.adapter:ChatGptAdapter",
    readers={"chatgpt_export": "moraine.harnesses._shared.export:ExportReader"},
    importer=True,
    reads=(
        "conversations.json of a data export (.zip, folder or file; sharded files too): the branch last shown "
        "of each conversation, prompts, replies, thoughts, tool calls (python, browsing, image tools) and their "
        "results, models, titles, times"
    ),
    not_read=(
        "other branches (edited or regenerated messages), images and other attachments, hidden system "
        "context, token usage (not exported); no resume command"
    ),
)
