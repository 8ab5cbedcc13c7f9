"""Piebald (source ``piebald``): chat snapshots read from its SQLite store -> normalized events.

Snapshots come from ``reader.PiebaldReader``: ``{record: "piebald_chat", chat: {id, title, created_at, updated_at,
cwd}, messages: [{id, enabled, role, model, created_at, token counts, finish_reason, error, parts: [{type: "text",
thinking, text} | {type: "tool_call", id, name, input, result, error, state, sub_agent_chat_id}]}], unsettled}``.
A message the chat no longer shows (``enabled`` 0: a branch left behind) is a side chain that never ends a turn.
An assistant message whose last part is text ends the turn with it as the answer; an error ends it as crashed. A
snapshot whose newest message is still streaming holds that message back. The state remembers, per chat, how many
messages were emitted.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses.piebald.reader import CHAT_RECORD
from moraine.harnesses._shared.events import RecordEvents, end_message
from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harnesses._shared.snapshot import Conversation, read_new_messages
from moraine.harnesses._shared.usage import UsageKeys, attach_usage, token_usage
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, parse_json_string, read_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, TerminalKind

__all__ = ["PiebaldAdapter"]

_SPELLING = ("Piebald", "chat", ("id", "title", "cwd", "created_at"))

_USAGE = UsageKeys(
    input=("input_tokens",),
    output=("output_tokens",),
    cache_read=("cache_read_tokens",),
    cache_write=("cache_write_tokens",),
)


def _chat(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    """Return the not-yet-emitted events and session metadata of one chat snapshot."""
    return read_new_messages(data, ctx.state, _SPELLING, _message)


def _message(chat: Conversation, message: dict[str, Any], out: list[Emitted]) -> list[Emitted]:
    side = message.get("enabled") in (0, False)
    base = RecordEvents(chat.session, read_timestamp(message.get("created_at"), out), chat.cwd, side)
    base.provenance = {"message_id": message.get("id"), "role": message.get("role")}
    role = as_str(message.get("role")) or "user"
    model = as_str(message.get("model"))
    events: list[Event] = []
    for part in as_list(message.get("parts")):
        part = as_dict(part)
        if part.get("type") == "text" and as_str(part.get("text")):
            events.append(_text(part, role, model, base))
        elif part.get("type") == "tool_call":
            events.extend(_tool(part, model, base))
    if role != "assistant" or side:
        return list(events)
    error = as_str(message.get("error"))
    if error:
        events.append(
            base.event(EventType.RUNTIME, text=error, terminal=True, terminal_kind=TerminalKind.CRASHED)
        )
    said: list[Emitted] = end_message(events) if message.get("finish_reason") else list(events)
    attach_usage(said, token_usage(message, _USAGE))
    return said


def _text(part: dict[str, Any], role: str, model: str | None, base: RecordEvents) -> Event:
    if role == "assistant":
        return (
            base.reasoning(part["text"], model) if part.get("thinking") else base.answer(part["text"], model)
        )
    return base.event(EventType.USER_INPUT, text=part["text"], starts_turn=not base.sidechain)


def _tool(part: dict[str, Any], model: str | None, base: RecordEvents) -> list[Event]:
    arguments = parse_json_string(part.get("input"))
    call = base.tool_call(as_str(part.get("name")), as_str(part.get("id")), arguments, model)
    result, error = as_str(part.get("result")), as_str(part.get("error"))
    if result is None and error is None:
        return [call]
    state = as_str(part.get("state"))
    response = base.response_to(call, result or error or "", tool_error=error is not None and result is None)
    response.provenance["state"] = state
    return [call, response]


class PiebaldAdapter(TaggedAdapter):
    """Normalize Piebald chat snapshots."""

    harness = "piebald"
    kinds = {CHAT_RECORD: _chat}
    untagged = "not a Piebald chat record"
