"""OpenHands (source ``openhands``): conversation events -> normalized events.

Records come from ``conversation_reader``: the conversation (its id, model and workspace: the session's metadata),
then each event with the conversation. Event kinds:

- ``MessageEvent`` ``{source, llm_message: {role, content: [{type: text, text}]}, thinking_blocks,
  reasoning_content}``: the user's message opens a turn; the agent's is its reply, which ends the turn as its
  final answer (the agent loop stops when it answers without acting);
- ``ActionEvent`` ``{thought, thinking_blocks, reasoning_content, tool_name, tool_call_id, tool_call: {name,
  arguments (a JSON string)}, action, summary}``: reasoning, the thought before acting, and the tool call (the
  recorded arguments, else the action);
- ``ObservationEvent`` ``{tool_name, tool_call_id, observation: {content, is_error, exit_code, metadata:
  {working_dir, exit_code}}}``: the tool's response; an observation without a call id is system text;
- ``Condensation``: the history was condensed (a compaction); ``AgentErrorEvent``: an error the agent saw
  (system text). Other kinds (the system prompt, state updates, pauses) are not indexed.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses.openhands.conversation_reader import CONVERSATION_RECORD, EVENT_RECORD
from moraine.harnesses._shared.held import Held, announce, holding
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harnesses._shared.text import parts_text
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_int, as_list, as_str, read_timestamp
from moraine.harnesses._shared.fields import output_text, parse_json_string
from moraine.harness_api.model import Emitted, Event, EventType, IngestError

__all__ = ["OpenHandsAdapter"]


def _event(found: Held, ctx: StreamContext) -> list[Emitted]:
    event, conversation = found.item, found.holder
    model = as_str(conversation.get("model"))
    observation = as_dict(event.get("observation"))
    cwd = as_str(as_dict(observation.get("metadata")).get("working_dir")) or as_str(conversation.get("cwd"))
    out: list[Emitted] = []
    timestamp = read_timestamp(event.get("timestamp"), out)
    kind = event.get("kind")
    provenance = {"kind": kind, **({"event_id": event["id"]} if as_str(event.get("id")) else {})}
    base = RecordEvents(found.session, timestamp, cwd, provenance=provenance)
    if kind == "MessageEvent":
        out.extend(_message(event, base, model))
    elif kind == "ActionEvent":
        out.extend(_action(event, base, model))
    elif kind == "ObservationEvent":
        out.extend(_observation(event, observation, base))
    elif kind == "Condensation":
        out.append(base.event(EventType.COMPACTION, text=as_str(event.get("summary")) or ""))
    elif kind == "AgentErrorEvent":
        out.append(base.event(EventType.SYSTEM, text=output_text(event.get("error"))))
    return out


def _conversation(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    conversation = as_dict(data.get("conversation"))
    if not as_str(conversation.get("id")):
        return [IngestError("malformed_record", "OpenHands conversation without an id")]
    return announce(ctx.state, str(conversation["id"]), conversation)


def _thinking(event: dict[str, Any], base: RecordEvents, model: str | None) -> list[Event]:
    blocks = [as_str(as_dict(b).get("thinking")) for b in as_list(event.get("thinking_blocks"))]
    text = "\n\n".join(b for b in blocks if b) or as_str(event.get("reasoning_content"))
    return [base.reasoning(text, model)] if text else []


def _message(event: dict[str, Any], base: RecordEvents, model: str | None) -> list[Emitted]:
    message = as_dict(event.get("llm_message"))
    text = parts_text(message.get("content"), "text").strip()
    role = message.get("role")
    if role == "user":
        return [base.event(EventType.USER_INPUT, text=text, starts_turn=bool(text))]
    if role == "assistant":
        events = _thinking(event, base, model)
        if text:
            events.append(base.answer(text, model, final=True))
        return list(events)
    return [IngestError("unknown_record", f"OpenHands message with role {str(role)[:40]!r}")]


def _action(event: dict[str, Any], base: RecordEvents, model: str | None) -> list[Emitted]:
    call = as_dict(event.get("tool_call"))
    name = as_str(event.get("tool_name")) or as_str(call.get("name"))
    if not name:
        return [IngestError("malformed_record", "OpenHands action without a tool name")]
    events: list[Emitted] = list(_thinking(event, base, model))
    thought = parts_text(event.get("thought"), "text").strip()
    if thought:
        events.append(base.answer(thought, model))
    arguments = parse_json_string(call.get("arguments"))
    if not isinstance(arguments, dict):
        arguments = event.get("action")
    call_id = as_str(event.get("tool_call_id")) or as_str(call.get("id"))
    summary = as_str(event.get("summary"))
    events.append(base.tool_call(name, call_id, arguments, model, {"summary": summary} if summary else {}))
    return events


def _observation(event: dict[str, Any], observation: dict[str, Any], base: RecordEvents) -> list[Emitted]:
    content = observation.get("content")
    text = output_text(content) if content is not None else as_str(observation.get("detail")) or ""
    call_id = as_str(event.get("tool_call_id"))
    if call_id is None:
        return [base.event(EventType.SYSTEM, text=text)] if text else []
    exit_code = as_int(observation.get("exit_code"))
    if exit_code is None:
        exit_code = as_int(as_dict(observation.get("metadata")).get("exit_code"))
    error = observation.get("is_error")
    return [
        base.canonical_response(
            as_str(event.get("tool_name")),
            call_id,
            text,
            exit_code=exit_code if exit_code is not None and exit_code >= 0 else None,
            tool_error=error if isinstance(error, bool) else None,
        )
    ]


class OpenHandsAdapter(TaggedAdapter):
    """Normalize the records ``conversation_reader`` reads."""

    harness = "openhands"
    kinds = {
        CONVERSATION_RECORD: _conversation,
        EVENT_RECORD: holding("conversation", "event", "OpenHands event", _event),
    }
    untagged = "not an OpenHands event record"
