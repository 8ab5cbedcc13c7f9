"""Cursor: agent transcripts (source ``cursor``) and the IDE chat store (source ``cursor-sqlite``) -> events.

Agent transcripts (``~/.cursor/projects/*/agent-transcripts/<id>/<id>.jsonl``) hold one message per line:
``{timestamp, role: user|assistant|tool, model, message: {content: [blocks]}}`` with text, reasoning/thinking,
``tool_use`` and ``tool_result`` blocks. An assistant line is one model response: one without tool calls ends the
agent loop, so its last text is the turn's final answer. Records of the IDE chat store (read by
``moraine.harnesses.cursor.reader``) are recognised by their ``record`` key and handled by ``composer``.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.events import RecordEvents, end_message
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.text import parts_text
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses.cursor.composer import SNAPSHOT_RECORD, normalize_composer
from moraine.harnesses._shared.fields import (
    as_dict,
    as_list,
    as_str,
    output_text,
    read_timestamp,
    trailing_uuid,
)
from moraine.harness_api.model import Emitted, Event, EventType, IngestError

__all__ = ["CursorAdapter"]

_REASONING_BLOCKS = frozenset({"reasoning", "thinking"})
_QUERY_OPEN, _QUERY_CLOSE = "<user_query>", "</user_query>"


class CursorAdapter(ObjectAdapter):
    """Normalize Cursor agent transcripts and IDE chat-store snapshots."""

    harness = "cursor"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one transcript line or store snapshot."""
        if data.get("record") == SNAPSHOT_RECORD:
            return normalize_composer(data, ctx)
        session = trailing_uuid(ctx.path.stem) or trailing_uuid(ctx.path.parent.name) or ctx.path.stem
        out: list[Emitted] = []
        timestamp = read_timestamp(data.get("timestamp"), out)
        blocks = [b for b in as_list(as_dict(data.get("message")).get("content")) if isinstance(b, dict)]
        role = data.get("role")
        line = RecordEvents(
            session, timestamp, provenance={"role": role if isinstance(role, str) else "unknown"}
        )
        if role == "user":
            text = _unwrap_query(parts_text(blocks, "text"))
            out.append(line.event(EventType.USER_INPUT, text=text, starts_turn=bool(text)))
        elif role == "assistant":
            out.extend(_assistant(blocks, line, as_str(data.get("model")), ctx))
        elif role == "tool":
            out.extend(_tool_result(b, line, ctx) for b in blocks if b.get("type") == "tool_result")
        elif isinstance(data.get("message"), dict) or role is not None:
            out.append(IngestError("unknown_record", f"unknown transcript role {str(role)[:40]!r}"))
        else:
            out.append(IngestError("malformed_record", "transcript line without role or message"))
        return out


def _unwrap_query(text: str) -> str:
    """Return the prompt inside Cursor's ``<user_query>`` wrapper (text without the wrapper is unchanged)."""
    stripped = text.strip()
    if stripped.startswith(_QUERY_OPEN) and stripped.endswith(_QUERY_CLOSE):
        return stripped[len(_QUERY_OPEN) : -len(_QUERY_CLOSE)].strip()
    return text


def _assistant(
    blocks: list[dict[str, Any]], line: RecordEvents, model: str | None, ctx: StreamContext
) -> list[Emitted]:
    events: list[Event] = []
    for block in blocks:
        kind, text = block.get("type"), block.get("text")
        if kind in _REASONING_BLOCKS and isinstance(text, str):
            events.append(line.reasoning(text, model))
        elif kind == "text" and isinstance(text, str):
            events.append(line.answer(text, model))
        elif kind == "tool_use":
            name, call_id = as_str(block.get("name")), as_str(block.get("id"))
            events.append(line.tool_call(name, call_id, block.get("input"), model, calls=ctx.state))
    return end_message(events)


def _tool_result(block: dict[str, Any], line: RecordEvents, ctx: StreamContext) -> Event:
    call_id = as_str(block.get("tool_use_id"))
    name = as_str(block.get("name")) or recall_call(ctx.state, call_id)
    error = block.get("is_error")
    text = output_text(block.get("content"))
    return line.tool_response(name, call_id, text, tool_error=error if isinstance(error, bool) else None)
