"""One whole chat-completions message -> its events, for harnesses whose assistant answers when it calls no tool.

``message_events`` reads a user, system or tool message with ``_chat.chat_event``, and an assistant message as its
reasoning and text (the turn's answer when it calls no tool) followed by its tool calls; any other role is reported.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.chat import chat_event, function_call, said, tool_calls
from moraine.harnesses._shared.events import RecordEvents
from moraine.ingest.model import Emitted, IngestError

__all__ = ["message_events"]


def message_events(
    message: dict[str, Any],
    content: str,
    reasoning_key: str,
    model: str | None,
    record: RecordEvents,
    state: dict[str, Any],
    what: str,
) -> list[Emitted]:
    """Return the events of ``message`` (its text ``content``, reasoning under ``reasoning_key``); ``what`` names it."""
    event = chat_event(message, content, record, state, spelling=False)
    if event is not None:
        return [event]
    if message.get("role") != "assistant":
        return [IngestError("unknown_record", f"{what} with role {str(message.get('role'))[:40]!r}")]
    calls = tool_calls(message)
    out: list[Emitted] = list(said(message, reasoning_key, content, model, record, not calls))
    out.extend(record.tool_call(*function_call(call), model, calls=state) for call in calls)
    return out
