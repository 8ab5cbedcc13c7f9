"""Amp (source ``amp``): the messages of local thread files -> normalized events.

Records come from ``thread_reader``. A message is ``{role, content: [...], usage}``: content blocks are ``text``,
``thinking`` ``{thinking}``, ``tool_use`` ``{id, name, input, complete}`` and ``tool_result``, either
``{tool_use_id, content}`` or Amp's own ``{toolUseID, run: {status: done|error|cancelled, result, error:
{message}}}``. An assistant message's ``usage`` ``{model, inputTokens, outputTokens, cacheCreationInputTokens,
cacheReadInputTokens, timestamp}`` gives its model, token usage and time. A user message of text opens a turn; an
assistant message that uses no tool ends it with its last text as the answer. The thread's id is the session, its
title the title, its first tree the working directory, ``created`` the start.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses.amp.thread_reader import MESSAGE_RECORD
from moraine.harnesses._shared.content_blocks import spoken_block
from moraine.harnesses._shared.held import Held, holding
from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.events import RecordEvents, end_message
from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harnesses._shared.usage import UsageKeys, token_usage
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, output_text, read_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, IngestError

__all__ = ["AmpAdapter"]

_RESULT_KEYS = ("output", "content", "diff")

# Token counts as its trace names them (the reasoning count, where any, under the default key).
_USAGE = UsageKeys(
    input=("inputTokens",),
    output=("outputTokens",),
    cache_read=("cacheReadInputTokens",),
    cache_write=("cacheCreationInputTokens",),
)


def _message(found: Held, ctx: StreamContext) -> list[Emitted]:
    message = found.item
    out: list[Emitted] = []
    usage = as_dict(message.get("usage"))
    timestamp = read_timestamp(usage.get("timestamp"), out)
    cwd = as_str(found.holder.get("cwd"))
    base = RecordEvents(
        found.session, timestamp, cwd, provenance={"message_index": found.record.get("index")}
    )
    blocks = [block for block in as_list(message.get("content")) if isinstance(block, dict)]
    role = message.get("role")
    if role == "user":
        out.extend(_user(blocks, base, ctx.state))
    elif role == "assistant":
        out.extend(_assistant(blocks, base, usage, ctx.state))
    else:
        out.append(IngestError("unknown_record", f"Amp message with role {str(role)[:40]!r}"))
    return out


def _user(blocks: list[dict[str, Any]], base: RecordEvents, state: dict[str, Any]) -> list[Emitted]:
    out: list[Emitted] = []
    texts = [b["text"] for b in blocks if b.get("type") == "text" and isinstance(b.get("text"), str)]
    text = "\n".join(texts).strip()
    if text:
        out.append(base.event(EventType.USER_INPUT, text=text, starts_turn=True))
    for block in blocks:
        if block.get("type") == "tool_result":
            out.append(_result(block, base, state))
    return out


def _result(block: dict[str, Any], base: RecordEvents, state: dict[str, Any]) -> Event:
    call_id = as_str(block.get("tool_use_id")) or as_str(block.get("toolUseID"))
    run = as_dict(block.get("run"))
    status = as_str(run.get("status"))
    if "run" not in block:
        text = output_text(block.get("content"))
    elif run.get("result") is not None:
        text = _result_text(run["result"])
    else:
        text = as_str(as_dict(run.get("error")).get("message")) or (f"[{status}]" if status else "")
    failed = status in ("error", "cancelled") if status else block.get("is_error") is True or None
    return base.canonical_response(recall_call(state, call_id), call_id, text, tool_error=failed)


def _result_text(result: Any) -> str:
    if isinstance(result, dict):
        for key in _RESULT_KEYS:
            if isinstance(result.get(key), str) and result[key]:
                return str(result[key])
    return output_text(result)


def _assistant(
    blocks: list[dict[str, Any]], base: RecordEvents, usage: dict[str, Any], state: dict[str, Any]
) -> list[Emitted]:
    model = as_str(usage.get("model"))
    events: list[Event] = []
    for block in blocks:
        said = spoken_block(block, base, model)
        if said is not None:
            events.append(said)
        elif block.get("type") == "tool_use":
            call = base.tool_call(
                as_str(block.get("name")), as_str(block.get("id")), block.get("input"), model, calls=state
            )
            events.append(call)
    if events:
        events[0].usage = token_usage(usage, _USAGE)
    return end_message(events)


class AmpAdapter(TaggedAdapter):
    """Normalize the thread messages ``thread_reader`` reads."""

    harness = "amp"
    kinds = {MESSAGE_RECORD: holding("thread", "message", "Amp message", _message)}
    untagged = "not an Amp thread message"
