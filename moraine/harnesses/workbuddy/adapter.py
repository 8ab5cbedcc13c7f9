"""WorkBuddy transcripts (``~/.workbuddy/projects/<project>/<session>.jsonl``) -> normalized events.

One item a line, in the shape of an agents SDK run: ``message`` ``{role, content}`` (a string or parts with
``text``/``input_text``/``output_text``), ``function_call`` ``{name, callId, arguments}`` (arguments a JSON
string or an object) and ``function_call_result`` ``{name, callId, output}``; every item has a millisecond
``timestamp``, the first ones the ``sessionId`` and ``cwd``; model replies carry ``providerData.model`` and their
token counts in ``providerData.usage`` (or the provider's ``rawUsage``). Replies and calls are separate items, so
each assistant message is the turn's answer until a later one replaces it (the last one is the answer). A
transcript under ``<session>/subagents/`` is a sub-agent's session, child of ``<session>``.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.memory import changed
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.usage import cached_left_out
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_int, as_list, as_str, output_text
from moraine.harnesses._shared.fields import parse_json_string, read_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, SessionInfo, TokenUsage

__all__ = ["WorkBuddyAdapter"]

_TEXT_KEYS = ("text", "input_text", "output_text")
# Token count names, by what they count: WorkBuddy's own, Anthropic's, OpenAI's.
_USAGE_KEYS = {
    "input": ("inputTokens", "input_tokens", "prompt_tokens"),
    "output": ("outputTokens", "output_tokens", "completion_tokens"),
    "cache_read": ("cacheReadInputTokens", "cache_read_input_tokens"),
    "cache_write": ("cacheCreationInputTokens", "cache_creation_input_tokens"),
    "reasoning": ("reasoningTokens", "reasoning_tokens"),
}


class WorkBuddyAdapter(ObjectAdapter):
    """Normalize WorkBuddy transcript items."""

    harness = "workbuddy"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one item."""
        out: list[Emitted] = []
        session = _session(data, ctx, out)
        timestamp = read_timestamp(data.get("timestamp"), out)
        cwd = as_str(ctx.state.get("cwd"))
        record = RecordEvents(
            session, timestamp, cwd, provenance={"item_type": data.get("type"), "id": data.get("id")}
        )
        provider = as_dict(data.get("providerData"))
        model = as_str(provider.get("model"))
        kind = data.get("type")
        event: Event | None = None
        if kind == "message":
            event = _message(data, record, model)
        elif kind == "function_call":
            arguments = parse_json_string(data.get("arguments"))
            call_id = as_str(data.get("callId"))
            event = record.tool_call(as_str(data.get("name")), call_id, arguments, model, calls=ctx.state)
        elif kind == "function_call_result":
            payload = data.get("output")
            text = output_text(payload) if payload is not None else ""
            event = record.canonical_response(as_str(data.get("name")), as_str(data.get("callId")), text)
        if event is None:
            return out
        event.usage = _usage(provider)
        return out + [event]


def _session(data: dict[str, Any], ctx: StreamContext, out: list[Emitted]) -> str:
    """Return the item's session, announcing the session's directory and parent when first known."""
    path = ctx.path
    if path.parent.name == "subagents":
        parent = path.parent.parent.name
        session = f"{parent}:{path.stem}"
        if changed(ctx.state, "session", session):
            out.append(SessionInfo(session=session, parent_session=parent))
    else:
        session = as_str(ctx.state.get("session")) or as_str(data.get("sessionId")) or path.stem
        ctx.state["session"] = session
    cwd = as_str(data.get("cwd"))
    if cwd and changed(ctx.state, "cwd", cwd):
        out.append(SessionInfo(session=session, cwd=cwd))
    return session


def _message(data: dict[str, Any], record: RecordEvents, model: str | None) -> Event | None:
    content = data.get("content")
    if isinstance(content, str):
        text = content
    else:
        parts = [as_dict(part) for part in as_list(content)]
        text = "\n".join(next((p[k] for k in _TEXT_KEYS if as_str(p.get(k))), "") for p in parts).strip()
    role = data.get("role")
    if role == "user":
        return record.event(EventType.USER_INPUT, text=text, starts_turn=bool(text.strip()))
    if role == "assistant":
        return record.answer(text, model, final=bool(text.strip()))
    if role == "system":
        return record.event(EventType.SYSTEM, text=text)
    return None


def _usage(provider: dict[str, Any]) -> TokenUsage | None:
    counts = as_dict(provider.get("usage")) or as_dict(provider.get("rawUsage"))
    if not counts:
        return None
    found = {
        field: next((as_int(counts.get(key)) for key in keys if as_int(counts.get(key)) is not None), None)
        for field, keys in _USAGE_KEYS.items()
    }
    details = as_dict(counts.get("prompt_tokens_details"))
    if found["cache_read"] is None:
        found["cache_read"] = as_int(details.get("cached_tokens"))
    if found["reasoning"] is None:
        found["reasoning"] = as_int(as_dict(counts.get("completion_tokens_details")).get("reasoning_tokens"))
    if not any(v is not None for v in found.values()):
        return None
    usage = TokenUsage(**found)
    # OpenAI's ``prompt_tokens`` includes its cached tokens; WorkBuddy's and Anthropic's input counts leave them out.
    return cached_left_out(usage) if as_int(counts.get("prompt_tokens")) is not None else usage
