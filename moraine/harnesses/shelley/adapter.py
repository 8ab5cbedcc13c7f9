"""Shelley (source ``shelley``): conversation snapshots read from its SQLite store -> normalized events.

Snapshots come from ``reader.ShelleyReader``. A message's ``llm_data`` is ``{Role, Content: [{Type, Text, Thinking,
ToolName, ToolInput, ToolUseID, ToolError, ToolResult: [content]}]}`` with numbered content types: 2 text, 3
thinking, 4 redacted thinking, 5 tool use, 6 tool result, 7 server tool use, 8 web search result. They are read as
content blocks (``moraine.harnesses._shared.content_blocks``) under the message's type (user, agent = assistant, tool = its
results); ``usage_data`` (``input_tokens``, ``output_tokens``, cache counts, ``model``) is the call's usage.
"""

from __future__ import annotations

import json
from typing import Any

from moraine.harnesses.shelley.reader import CONVERSATION_RECORD
from moraine.harnesses._shared.content_blocks import Blocks, message_events
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harnesses._shared.snapshot import Conversation, read_new_messages
from moraine.harnesses._shared.usage import UsageKeys, attach_usage, token_usage
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_int, as_list, as_str, read_timestamp
from moraine.harness_api.model import Emitted

__all__ = ["ShelleyAdapter"]

_SPELLING = ("Shelley", "conversation", ("conversation_id", "slug", "cwd", "created_at"))
_ROLES = {"user": "user", "agent": "assistant", "tool": "tool"}
_KINDS = {2: "text", 3: "thinking", 5: "tool_use", 6: "tool_result", 7: "tool_use", 8: "tool_result"}
_USAGE = UsageKeys()


def _conversation(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    """Return what one conversation snapshot adds."""
    return read_new_messages(data, ctx.state, _SPELLING, lambda c, m, out: _message(c, m, out, ctx))


def _message(
    conversation: Conversation, row: dict[str, Any], out: list[Emitted], ctx: StreamContext
) -> list[Emitted]:
    llm = as_dict(_json(row.get("llm_data")))
    usage = as_dict(_json(row.get("usage_data")))
    role = _ROLES.get(str(row.get("type")), "")
    blocks = [_block(as_dict(content)) for content in as_list(llm.get("Content"))]
    base = RecordEvents(conversation.session, read_timestamp(row.get("created_at"), out), conversation.cwd)
    base.provenance = {"sequence_id": row.get("sequence_id"), "message_type": row.get("type")}
    said = message_events(
        {"role": role, "content": blocks}, Blocks(), base, as_str(usage.get("model")), ctx.state
    )
    attach_usage(said, token_usage(usage, _USAGE))
    return said


def _block(content: dict[str, Any]) -> dict[str, Any]:
    """Return a Shelley content object as an Anthropic-style block (unknown types are left unread)."""
    kind = _KINDS.get(as_int(content.get("Type")) or 0, "unknown")
    if kind == "tool_result":
        texts = [as_str(as_dict(r).get("Text")) or "" for r in as_list(content.get("ToolResult"))]
        result = "\n".join(t for t in texts if t)
        return {
            "type": kind,
            "tool_use_id": content.get("ToolUseID"),
            "content": result,
            "is_error": content.get("ToolError") is True,
        }
    if kind == "tool_use":
        return {
            "type": kind,
            "id": content.get("ToolUseID"),
            "name": content.get("ToolName"),
            "input": content.get("ToolInput"),
        }
    return {"type": kind, "text": content.get("Text"), "thinking": content.get("Thinking")}


def _json(value: Any) -> Any:
    try:
        return json.loads(value) if isinstance(value, str) and value else value
    except ValueError:
        return None


class ShelleyAdapter(TaggedAdapter):
    """Normalize Shelley conversation snapshots."""

    harness = "shelley"
    kinds = {CONVERSATION_RECORD: _conversation}
    untagged = "not a Shelley conversation record"
