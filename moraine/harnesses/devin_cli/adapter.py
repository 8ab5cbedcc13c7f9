"""Devin CLI (source ``devin-cli``): transcript steps -> normalized events.

Records come from ``transcript_reader``. A step is ``{step_id, source: user|agent|system, timestamp, message,
tool_use: [...], tool_result: [...], metrics: {prompt_tokens, completion_tokens, cached_tokens}, model_name, extra:
{generation_model}}``; ``message`` is a string or Anthropic-style blocks (``text``, ``thinking``, ``tool_use``);
tool results are ``{tool_use_id, content, is_error}``. A user step with text opens a turn; an agent step gives its
thinking, text and tool calls, with its metrics as the usage of its model call (prompt tokens less the cached ones
as input, the cached ones as cache reads); an agent step that calls no tool ends the turn with its last text as the
answer. System steps are system text.

Sessions without a transcript come from ``nodes_reader`` (source ``devin-cli-nodes``): chat-completions message
nodes (``agent`` is the assistant, ``thinking`` its reasoning), read through the shared chat helpers.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses.devin_cli.nodes_reader import NODE_RECORD
from moraine.harnesses.devin_cli.transcript_reader import STEP_RECORD
from moraine.harnesses._shared.content_blocks import spoken_block
from moraine.harnesses._shared.held import Held, holding
from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.chat import chat_message_events
from moraine.harnesses._shared.events import RecordEvents, end_message
from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harnesses._shared.text import parts_text
from moraine.harnesses._shared.usage import cached_left_out, read_usage
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, output_text, read_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, IngestError

__all__ = ["DevinCliAdapter"]


def _step(found: Held, ctx: StreamContext) -> list[Emitted]:
    step, row = found.item, found.holder
    out: list[Emitted] = []
    timestamp = read_timestamp(step.get("timestamp") or step.get("created_at"), out)
    cwd = as_str(row.get("cwd"))
    step_id = step.get("step_id")
    base = RecordEvents(
        found.session, timestamp, cwd, provenance={"step_id": step_id} if step_id is not None else {}
    )
    source = step.get("source")
    message = step.get("message")
    if source == "user":
        text = parts_text(message, "text").strip()
        if text:
            out.append(base.event(EventType.USER_INPUT, text=text, starts_turn=True))
    elif source == "agent":
        model = as_str(as_dict(step.get("extra")).get("generation_model")) or as_str(step.get("model_name"))
        out.extend(_agent(step, message, base, model or as_str(row.get("model")), ctx.state))
    elif source == "system":
        out.append(base.event(EventType.SYSTEM, text=parts_text(message, "text")))
    else:
        out.append(IngestError("unknown_record", f"Devin step from {str(source)[:40]!r}"))
    out.extend(_results(step, base, ctx.state))
    return out


def _agent(
    step: dict[str, Any], message: Any, base: RecordEvents, model: str | None, state: dict[str, Any]
) -> list[Emitted]:
    events: list[Event] = []
    blocks = [{"type": "text", "text": message}] if isinstance(message, str) else as_list(message)
    calls = [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_use"]
    calls += [c for c in as_list(step.get("tool_use")) if isinstance(c, dict)]
    for block in blocks:
        said = spoken_block(block, base, model) if isinstance(block, dict) else None
        if said is not None:
            events.append(said)
    for call in calls:
        name, call_id = as_str(call.get("name")), as_str(call.get("id"))
        events.append(base.tool_call(name, call_id, call.get("input"), model, calls=state))
    metrics = as_dict(step.get("metrics"))
    if events and metrics:
        events[0].usage = cached_left_out(
            read_usage(metrics, input="prompt_tokens", output="completion_tokens", cache_read="cached_tokens")
        )
    return end_message(events)


def _results(step: dict[str, Any], base: RecordEvents, state: dict[str, Any]) -> list[Emitted]:
    out: list[Emitted] = []
    for result in as_list(step.get("tool_result")):
        result = as_dict(result)
        call_id = as_str(result.get("tool_use_id"))
        error = result.get("is_error")
        out.append(
            base.canonical_response(
                recall_call(state, call_id),
                call_id,
                output_text(result.get("content")),
                tool_error=error if isinstance(error, bool) else None,
            )
        )
    return out


def _node(found: Held, ctx: StreamContext) -> list[Emitted]:
    """Read one message node (a chat-completions message) of a session that has no transcript."""
    node = found.item
    out: list[Emitted] = []
    timestamp = read_timestamp(node.get("created_at"), out)
    record = RecordEvents(
        found.session, timestamp, as_str(found.holder.get("cwd")), provenance={"node_id": node.get("node_id")}
    )
    content = parts_text(node.get("content"), "text")
    role = "assistant" if node.get("role") == "agent" else node.get("role")
    model = as_str(found.holder.get("model"))
    out.extend(
        chat_message_events(
            {**node, "role": role}, content, "thinking", model, record, ctx.state, "Devin node"
        )
    )
    return out


class DevinCliAdapter(TaggedAdapter):
    """Normalize the transcript steps ``transcript_reader`` reads."""

    harness = "devin-cli"
    kinds = {
        STEP_RECORD: holding("session", "step", "Devin step", _step),
        NODE_RECORD: holding("session", "node", "Devin node", _node),
    }
    untagged = "not a Devin transcript step"
