"""Anthropic-style content blocks (``thinking``, ``text``, ``tool_use``) as several harnesses write them.

Shared by the adapters whose messages are lists of such blocks outside Claude Code's own transcripts (QwenPaw's
memory, Claude.ai's exports): ``spoken_block`` reads a thinking or text block, ``block_call`` a tool call.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.fields import as_str, parse_json_string
from moraine.ingest.model import Event

__all__ = ["block_call", "spoken_block"]


def spoken_block(block: dict[str, Any], record: RecordEvents, model: str | None = None) -> Event | None:
    """Return the reasoning of a ``thinking`` block or the reply of a ``text`` block; None for anything else."""
    kind = block.get("type")
    if kind == "thinking" and as_str(block.get("thinking")):
        return record.reasoning(block["thinking"], model)
    if kind == "text" and as_str(block.get("text")):
        return record.answer(block["text"], model)
    return None


def block_call(block: dict[str, Any], record: RecordEvents, fallback_id: str | None = None) -> Event:
    """Return the call of a ``tool_use`` block: its ``input`` (else its ``raw_input`` JSON) and its id."""
    arguments = block.get("input")
    if arguments is None:
        arguments = parse_json_string(block.get("raw_input"))
    call_id = as_str(block.get("id")) or fallback_id
    return record.tool_call(as_str(block.get("name")), call_id, arguments)
