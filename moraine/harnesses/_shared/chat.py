"""Chat-completions messages (``{role, content, reasoning, tool_calls, tool_call_id, name}``) -> events.

Shared by the harnesses that keep their conversation as an OpenAI-style message list (Hermes live sessions, NAC)
or in its pieces (Kimi's wire log): ``function_call`` reads one of a message's tool calls, ``chat_event`` turns a
user, system or tool message into its event and ``said`` an assistant message's reasoning and text into theirs.
Each harness keeps its own rules for an assistant message's tool calls and for which text is the final answer, so
those stay in its adapter, except for the common case: ``chat_message_events`` reads one whole message, for harnesses whose assistant answers when it calls no tool:
its reasoning and text (the turn's answer when it calls no tool) followed by its tool calls; any other role is reported.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, parse_json_string
from moraine.harness_api.model import Emitted, Event, EventType, IngestError

__all__ = ["chat_event", "chat_message_events", "function_call", "said", "tool_calls"]


def tool_calls(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the tool calls of an assistant message (entries that are not objects are left out)."""
    return [call for call in as_list(message.get("tool_calls")) if isinstance(call, dict)]


def function_call(call: dict[str, Any]) -> tuple[str | None, str | None, Any]:
    """Return ``(name, call id, arguments)`` of a ``{id, function: {name, arguments}}`` call (arguments parsed)."""
    function = as_dict(call.get("function"))
    return as_str(function.get("name")), as_str(call.get("id")), parse_json_string(function.get("arguments"))


def chat_event(
    message: dict[str, Any], content: str, record: RecordEvents, state: dict[str, Any], spelling: bool
) -> Event | None:
    """Return the event of a user, system or tool message; None for any other role.

    A tool message names its tool, or the stream ``state`` remembers it by call id; with ``spelling`` the harness's
    own spelling of the name goes to provenance when it differs from the canonical one.
    """
    role = message.get("role")
    if role == "user":
        return record.event(EventType.USER_INPUT, text=content, starts_turn=bool(content))
    if role == "system":
        return record.event(EventType.SYSTEM, text=content)
    if role == "tool":
        call_id = as_str(message.get("tool_call_id"))
        name = as_str(message.get("name")) or recall_call(state, call_id)
        return record.canonical_response(name, call_id, content, spelling=spelling)
    return None


def said(
    message: dict[str, Any],
    reasoning_key: str,
    content: str,
    model: str | None,
    record: RecordEvents,
    final: bool,
    **answer: Any,
) -> list[Event]:
    """Return what an assistant message says before its tool calls: its reasoning, then its text (``content``).

    The reasoning is under ``reasoning_key`` or ``reasoning_content``; ``final`` and ``answer`` go to the text.
    """
    events: list[Event] = []
    reasoning = as_str(message.get(reasoning_key)) or as_str(message.get("reasoning_content"))
    if reasoning:
        events.append(record.reasoning(reasoning, model))
    if content:
        events.append(record.answer(content, model, final, **answer))
    return events


def chat_message_events(
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
