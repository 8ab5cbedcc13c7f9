"""Visual Studio Copilot traces (``*_VSGitHubCopilot_traces.jsonl``): OpenTelemetry spans -> normalized events.

Each line is an OTLP JSON envelope ``{resourceSpans: [{scopeSpans: [{spans: [...]}]}]}``; a span's ``attributes``
are ``[{key, value: {stringValue | intValue | doubleValue | boolValue}}]`` following the generative-AI semantic
conventions. The session is ``gen_ai.conversation.id`` (one conversation may span several trace files). By
``gen_ai.operation.name``:

- ``invoke_agent``: one agent run; its ``gen_ai.request.model`` is the session's model.
- ``chat``: one model call. ``gen_ai.input.messages`` (JSON ``[{role, parts: [{type: text, content}]}]``) repeats
  the conversation so far: its last message, when it is the user's and differs from the last prompt read, is new
  user input. ``gen_ai.output.messages`` holds the reply: ``text`` parts are responses, ``tool_call`` parts
  (``{id, name, arguments}``) tool calls; a reply that calls no tool ends the turn with its last text as the final
  answer. ``gen_ai.usage.input_tokens``/``output_tokens`` and ``gen_ai.response.model`` go to the reply's last event.
- ``execute_tool``: a tool run (``gen_ai.tool.name``, ``gen_ai.tool.call.id``, ``gen_ai.tool.call.arguments``,
  ``gen_ai.tool.call.result``): the response to its call, and the call itself when no chat span announced it.

Span times (``startTimeUnixNano``/``endTimeUnixNano``) date the events. Other operations are ignored.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.events import RecordEvents, end_message
from moraine.harnesses._shared.memory import changed, session_entry
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.text import text_digest
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_int, as_list, as_str, json_text, parse_json_string
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo, TokenUsage

__all__ = ["VisualStudioCopilotAdapter"]

_VALUE_KEYS = ("stringValue", "intValue", "doubleValue", "boolValue")


def _spans(envelope: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        span
        for resource in as_list(envelope.get("resourceSpans"))
        for scope in as_list(as_dict(resource).get("scopeSpans"))
        for span in as_list(as_dict(scope).get("spans"))
        if isinstance(span, dict)
    ]


def _attributes(span: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for attribute in as_list(span.get("attributes")):
        value = as_dict(as_dict(attribute).get("value"))
        key = as_str(as_dict(attribute).get("key"))
        found = next((value[k] for k in _VALUE_KEYS if k in value), None)
        if key is not None and found is not None:
            out[key] = found
    return out


def _time(value: Any) -> datetime | None:
    nanos = as_int(int(value)) if isinstance(value, str) and value.isdigit() else as_int(value)
    return datetime.fromtimestamp(nanos / 1e9, tz=UTC) if nanos else None


def _span(span: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    attributes = _attributes(span)
    operation = attributes.get("gen_ai.operation.name")
    session = as_str(attributes.get("gen_ai.conversation.id"))
    if operation not in ("invoke_agent", "chat", "execute_tool"):
        return []
    if session is None:
        return [
            IngestError(
                "malformed_record", f"{operation} span {span.get('spanId')} without a conversation id"
            )
        ]
    provenance = {"span_id": span.get("spanId"), "trace_id": span.get("traceId"), "operation": operation}
    started = RecordEvents(session, _time(span.get("startTimeUnixNano")), provenance=provenance)
    ended = RecordEvents(session, _time(span.get("endTimeUnixNano")), provenance=provenance)
    if operation == "invoke_agent":
        model = as_str(attributes.get("gen_ai.request.model"))
        memory = session_entry(ctx.state, "conversations", session)
        first = "model" not in memory
        if not changed(memory, "model", model) and not first:
            return []
        return [SessionInfo(session=session, model=model, started_at=started.timestamp if first else None)]
    if operation == "chat":
        return _chat(attributes, started, ended, ctx)
    return _tool_run(attributes, started, ended, ctx)


def _chat(
    attributes: dict[str, Any], started: RecordEvents, ended: RecordEvents, ctx: StreamContext
) -> list[Emitted]:
    out: list[Emitted] = []
    messages = as_list(parse_json_string(attributes.get("gen_ai.input.messages")))
    last = as_dict(messages[-1]) if messages else {}
    prompt = _parts_text(last) if last.get("role") == "user" else ""
    memory = session_entry(ctx.state, "conversations", started.session)
    if prompt.strip() and changed(memory, "prompt", text_digest(prompt)):
        out.append(started.event(EventType.USER_INPUT, text=prompt, starts_turn=True))
    model = as_str(attributes.get("gen_ai.response.model")) or as_str(attributes.get("gen_ai.request.model"))
    reply: list[Event] = []
    for message in as_list(parse_json_string(attributes.get("gen_ai.output.messages"))):
        for part in as_list(as_dict(message).get("parts")):
            part = as_dict(part)
            if part.get("type") == "text" and as_str(part.get("content")):
                reply.append(ended.answer(part["content"], model))
            elif part.get("type") == "tool_call":
                arguments = parse_json_string(part.get("arguments"))
                name, call_id = as_str(part.get("name")), as_str(part.get("id"))
                reply.append(ended.tool_call(name, call_id, arguments, model, calls=ctx.state))
    counts = TokenUsage(
        input=_count(attributes.get("gen_ai.usage.input_tokens")),
        output=_count(attributes.get("gen_ai.usage.output_tokens")),
    )
    if reply and counts != TokenUsage():
        reply[-1].usage = counts
    out.extend(end_message(reply))
    return out


def _parts_text(message: dict[str, Any]) -> str:
    parts = as_list(message.get("parts"))
    return "\n".join(str(p["content"]) for p in parts if isinstance(p, dict) and as_str(p.get("content")))


def _count(value: Any) -> int | None:
    return as_int(int(value)) if isinstance(value, str) and value.isdigit() else as_int(value)


def _tool_run(
    attributes: dict[str, Any], started: RecordEvents, ended: RecordEvents, ctx: StreamContext
) -> list[Emitted]:
    name = as_str(attributes.get("gen_ai.tool.name"))
    call_id = as_str(attributes.get("gen_ai.tool.call.id"))
    out: list[Emitted] = []
    if call_id is None or recall_call(ctx.state, call_id) is None:
        arguments = parse_json_string(attributes.get("gen_ai.tool.call.arguments"))
        out.append(started.tool_call(name, call_id, arguments, calls=ctx.state))
    result = parse_json_string(attributes.get("gen_ai.tool.call.result"))
    value = result.get("Value", result) if isinstance(result, dict) else result
    out.append(ended.canonical_response(name, call_id, json_text(value)))
    return out


class VisualStudioCopilotAdapter(ObjectAdapter):
    """Normalize the spans of Visual Studio Copilot trace lines."""

    harness = "visual-studio-copilot"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events and session metadata of every span in one trace line."""
        if not isinstance(data.get("resourceSpans"), list):
            return [IngestError("unknown_record", "not an OpenTelemetry trace envelope (no resourceSpans)")]
        out: list[Emitted] = []
        for span in _spans(data):
            out.extend(_span(span, ctx))
        return out
