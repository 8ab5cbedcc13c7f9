"""iFlow CLI transcripts (``~/.iflow/projects/<project>/session-<id>.jsonl``) -> normalized events.

iFlow writes Claude Code's transcript format (``{uuid, parentUuid, sessionId, timestamp, type, cwd, message:
{role, model, content: [blocks], usage}}``, tool results as user records with ``toolUseResult``), so the Claude
Code adapter reads it under iFlow's harness value, with two differences:

- While a reply streams, iFlow appends snapshots of it: each assistant record repeats the tool calls still
  running, and only the first snapshot holds the text. A ``tool_use`` block whose id was read before is dropped.
- The session is the file (``session-<id>``): a continued session's file starts with the ``sessionId`` of the
  session it continues, which becomes the parent.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.memory import remember
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.claude_format.adapter import ClaudeCodeAdapter
from moraine.harnesses._shared.fields import as_dict, as_str
from moraine.harness_api.model import Emitted, SessionInfo

__all__ = ["IflowAdapter"]

_SEEN_CALLS = 512


class IflowAdapter(ClaudeCodeAdapter):
    """Normalize iFlow transcript records (Claude Code's format, see the module docstring)."""

    harness = "iflow"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one transcript line."""
        session = ctx.path.stem.removeprefix("session-")
        recorded = as_str(data.get("sessionId"))
        out: list[Emitted] = []
        if recorded and recorded.removeprefix("session-") != session and "parent" not in ctx.state:
            ctx.state["parent"] = recorded.removeprefix("session-")
            out.append(SessionInfo(session=session, parent_session=ctx.state["parent"]))
        data = {**data, "sessionId": session}
        message = as_dict(data.get("message"))
        if data.get("type") == "assistant" and isinstance(message.get("content"), list):
            data["message"] = {**message, "content": _new_blocks(message["content"], ctx.state)}
        return out + super().normalize_object(data, ctx)


def _new_blocks(blocks: list[Any], state: dict[str, Any]) -> list[Any]:
    """Return the blocks of a reply snapshot without the tool calls an earlier snapshot held."""
    seen = state.setdefault("iflow_calls", {})
    kept = []
    for block in blocks:
        call_id = (
            as_str(block.get("id")) if isinstance(block, dict) and block.get("type") == "tool_use" else None
        )
        if call_id is not None:
            if call_id in seen:
                continue
            remember(seen, call_id, 1, _SEEN_CALLS)
        kept.append(block)
    return kept
