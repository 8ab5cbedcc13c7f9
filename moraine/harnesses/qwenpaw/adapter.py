"""QwenPaw session memory -> normalized events.

A memory entry is ``[message, marks]``; a message is ``{id, name, role, content: [blocks], metadata, timestamp}``
with Anthropic-style blocks: ``text``, ``thinking``, ``tool_use`` ``{id, name, input, raw_input}`` and
``tool_result`` ``{id, name, output}``. ``user`` messages are prompts; ``assistant`` messages say, think and call
tools; ``system`` messages carry tool results (and otherwise the system's own text). Timestamps are the
machine's local wall-clock time (``YYYY-MM-DD HH:MM:SS.fff``). An assistant message that calls no tool ends the
agent loop: its text is the turn's answer. The session is the file (``<workspace>:[<channel>:]<name>``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from moraine.harnesses._shared.content_blocks import block_call, spoken_block
from moraine.harnesses._shared.events import RecordEvents, end_message
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_list, as_str, output_text
from moraine.harness_api.model import Emitted, Event, EventType, IngestError

__all__ = ["QwenPawAdapter"]


class QwenPawAdapter(ObjectAdapter):
    """Normalize QwenPaw memory entries."""

    harness = "qwenpaw"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events and ingest errors of one memory entry."""
        entry = as_list(data.get("entry"))
        message = entry[0] if entry else None
        if not isinstance(message, dict):
            return [
                IngestError("malformed_record", f"memory entry {data.get('index')} is not [message, marks]")
            ]
        out: list[Emitted] = []
        role = message.get("role")
        record = RecordEvents(
            _session(ctx),
            _local_time(message.get("timestamp"), out),
            provenance={"id": as_str(message.get("id")), "name": as_str(message.get("name")), "role": role},
        )
        blocks = [block for block in as_list(message.get("content")) if isinstance(block, dict)]
        if isinstance(message.get("content"), str):
            blocks = [{"type": "text", "text": message["content"]}]
        text = "\n".join(
            b["text"] for b in blocks if b.get("type") == "text" and isinstance(b.get("text"), str)
        )
        if role == "user":
            out.append(record.event(EventType.USER_INPUT, text=text, starts_turn=bool(text.strip())))
        elif role == "assistant":
            out.extend(_assistant(blocks, record))
        elif role == "system":
            results = [_result(b, record) for b in blocks if b.get("type") == "tool_result"]
            out.extend(results or [record.event(EventType.SYSTEM, text=text)])
        else:
            out.append(IngestError("unknown_record", f"message role {str(role)[:40]!r}"))
        return out


def _session(ctx: StreamContext) -> str:
    path = ctx.path
    parts = [path.stem]
    folder = path.parent
    if folder.name != "sessions":
        parts.insert(0, folder.name)
        folder = folder.parent
    parts.insert(0, folder.parent.name)
    return ":".join(parts)


def _local_time(value: Any, out: list[Emitted]) -> datetime | None:
    text = as_str(value)
    if text is None:
        return None
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        out.append(IngestError("timestamp_parse_error", f"unreadable timestamp {text[:40]!r}"))
        return None
    return parsed if parsed.tzinfo is not None else parsed.astimezone()


def _assistant(blocks: list[dict[str, Any]], record: RecordEvents) -> list[Emitted]:
    events: list[Event] = []
    for block in blocks:
        spoken = spoken_block(block, record)
        if spoken is not None:
            events.append(spoken)
        elif block.get("type") == "tool_use":
            events.append(block_call(block, record))
    return end_message(events)


def _result(block: dict[str, Any], record: RecordEvents) -> Event:
    output = block.get("output")
    return record.canonical_response(
        as_str(block.get("name")), as_str(block.get("id")), output_text(output) if output is not None else ""
    )
