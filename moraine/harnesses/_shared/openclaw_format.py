"""The OpenClaw family's session trees (``~/.openclaw/agents/<agent>/sessions/<id>.jsonl``) -> normalized events:
OpenClaw's adapter, which QClaw's (in its own folder) subclasses.

Both write the pi session-tree schema (``moraine.harnesses._shared.pi_tree``): a ``session`` header (version 3: id,
cwd), ``model_change`` and ``thinking_level_change`` entries, ``message`` entries with roles user, assistant and
``toolResult``, and ``compaction`` summaries. On top of pi they record, on an assistant message, the ``provider``,
``model`` and a ``usage`` object (``input``, ``output``, ``cacheRead``, ``cacheWrite``, ``totalTokens``, ``cost``),
and older files spell a tool call as an Anthropic ``tool_use`` block with its arguments under ``input``. Messages
relayed from a chat channel carry a gateway date prefix (``[Wed 2026-02-18 11:21 GMT+1] ``): the text keeps it,
the session's first prompt (its label when untitled) is given without it.
"""

from __future__ import annotations

import re
from typing import Any

from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.text import parts_text
from moraine.harnesses._shared.fields import as_dict, as_list
from moraine.harnesses._shared.pi_tree import PiFamilyNormalizer
from moraine.harness_api.model import FIRST_PROMPT_CHARS, Emitted, SessionInfo

__all__ = ["OpenClawAdapter"]

# The date a chat gateway stamps on a relayed message: "[Wed 2026-02-18 11:21 GMT+1] ".
_GATEWAY_DATE = re.compile(r"^\[[^\]\n]{1,40}\] ")


class OpenClawAdapter(PiFamilyNormalizer):
    """Normalize OpenClaw session trees (pi's schema, plus per-message usage and ``tool_use`` blocks)."""

    harness = "openclaw"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one tree entry."""
        message = as_dict(data.get("message"))
        if data.get("type") == "message" and message.get("role") == "assistant":
            data = {**data, "message": {**message, "content": _pi_blocks(message.get("content"))}}
        out = super().normalize_object(data, ctx)
        if message.get("role") == "user" and not ctx.state.get("prompted"):
            out[:0] = _first_prompt(parts_text(message.get("content"), "text"), ctx)
        return out


def _pi_blocks(content: Any) -> Any:
    """Return assistant content with ``tool_use`` blocks respelled as pi ``toolCall`` blocks."""
    if not isinstance(content, list):
        return content
    return [_pi_block(block) for block in as_list(content)]


def _pi_block(block: Any) -> Any:
    if not isinstance(block, dict) or block.get("type") != "tool_use":
        return block
    return {**block, "type": "toolCall", "arguments": block.get("arguments", block.get("input"))}


def _first_prompt(text: str, ctx: StreamContext) -> list[Emitted]:
    """Return the session's first prompt without a gateway date prefix (once, for its first user text)."""
    if not text:
        return []
    ctx.state["prompted"] = True
    stripped = _GATEWAY_DATE.sub("", text, count=1)
    if stripped == text:
        return []
    return [SessionInfo(session=ctx.state["session"], first_user_message=stripped[:FIRST_PROMPT_CHARS])]
