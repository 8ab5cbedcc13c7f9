"""Forge (source ``forge``): conversation snapshots read from its SQLite store -> normalized events.

Snapshots come from ``reader.ForgeReader``: ``{record: "forge_conversation", conversation: {id, title, created_at,
updated_at}, context: {messages: [...]}}``. Each context message is ``{message: {text: {...}} | {tool: {...}},
usage: {prompt_tokens, completion_tokens, cached_tokens: {actual}}}`` (the prompt count includes the cached). A
``text`` message has a ``role`` (System, User, Assistant), ``content`` (or ``raw_content.Text``), ``model``,
``timestamp``, and for the assistant ``reasoning_details`` ``[{text}]`` and ``tool_calls`` ``[{name, call_id,
arguments}]``; a ``tool`` message is a result ``{name, call_id, output: {is_error, values: [{text}]}}``. The system
prompt is not indexed; its ``<current_working_directory>`` is the session's cwd. An assistant message calling no
tool ends the turn with its text as the final answer. The state remembers, per conversation, how many messages were
emitted.
"""

from __future__ import annotations

import re
from typing import Any

from moraine.harnesses.forge.reader import CONVERSATION_RECORD
from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.events import RecordEvents, end_message
from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harnesses._shared.snapshot import Conversation, fresh
from moraine.harnesses._shared.usage import UsageKeys, attach_usage, cached_left_out, token_usage
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, json_text, read_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, IngestError

__all__ = ["ForgeAdapter"]

_CWD = re.compile(r"<current_working_directory>\s*(.*?)\s*</current_working_directory>", re.DOTALL)
# Forge's ``Usage`` is OpenAI's: ``prompt_tokens`` includes the ``cached_tokens`` (it stores a Responses call's
# ``input_tokens`` and ``input_tokens_details.cached_tokens`` so), taken out of Moraine's input.
_USAGE = UsageKeys(
    input=("prompt_tokens.actual",),
    output=("completion_tokens.actual",),
    cache_read=("cached_tokens.actual",),
    cache_write=(),
    reasoning=(),
)


def _conversation(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    """Return the not-yet-emitted events and session metadata of one conversation snapshot."""
    row = as_dict(data.get("conversation"))
    session = as_str(row.get("id"))
    messages = as_dict(data.get("context")).get("messages")
    if not session or not isinstance(messages, list):
        return [
            IngestError("malformed_record", "Forge snapshot without a conversation id or a messages list")
        ]
    out: list[Emitted] = []
    cwd = next((c for c in map(_cwd, messages) if c), None)
    conversation = Conversation(session, row.get("title"), cwd, row.get("created_at"))
    for index, message in fresh(ctx.state, conversation, messages, False, out):
        out.extend(_item(message, index, session, cwd, ctx))
    return out


def _cwd(item: Any) -> str | None:
    text = as_dict(as_dict(as_dict(item).get("message")).get("text"))
    if str(text.get("role")).lower() != "system":
        return None
    match = _CWD.search(_content(text))
    return match.group(1) if match else None


def _content(text: dict[str, Any]) -> str:
    return as_str(text.get("content")) or as_str(as_dict(text.get("raw_content")).get("Text")) or ""


def _item(item: Any, index: int, session: str, cwd: str | None, ctx: StreamContext) -> list[Emitted]:
    message = as_dict(as_dict(item).get("message"))
    base = RecordEvents(session, None, cwd, provenance={"message_index": index})
    if isinstance(message.get("text"), dict):
        out: list[Emitted] = []
        text = message["text"]
        base.timestamp = read_timestamp(text.get("timestamp"), out)
        out.extend(_text(text, base, ctx))
        attach_usage(out, cached_left_out(token_usage(as_dict(item).get("usage"), _USAGE)))
        return out
    if isinstance(message.get("tool"), dict):
        return [_tool(message["tool"], base, ctx)]
    return [IngestError("unknown_record", f"conversation {session} message {index}: neither text nor tool")]


def _text(text: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    role = str(text.get("role")).lower()
    content = _content(text)
    base.provenance["role"] = role
    if role == "system":
        return []  # the system prompt: not part of the conversation (its cwd is read above)
    if role == "user":
        return [base.event(EventType.USER_INPUT, text=content, starts_turn=bool(content.strip()))]
    if role != "assistant":
        return [IngestError("unknown_record", f"Forge message role {role[:40]!r}")]
    model = as_str(text.get("model"))
    events: list[Event] = []
    reasoning = "\n\n".join(
        d["text"] for d in as_list(text.get("reasoning_details")) if isinstance(as_dict(d).get("text"), str)
    )
    if reasoning:
        events.append(base.reasoning(reasoning, model))
    if content:
        events.append(base.answer(content, model))
    for call in as_list(text.get("tool_calls")):
        call = as_dict(call)
        events.append(
            base.tool_call(
                as_str(call.get("name")),
                as_str(call.get("call_id")),
                call.get("arguments"),
                model,
                calls=ctx.state,
            )
        )
    return end_message(events)


def _tool(tool: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> Event:
    call_id = as_str(tool.get("call_id"))
    output = as_dict(tool.get("output"))
    texts = [v["text"] for v in as_list(output.get("values")) if isinstance(as_dict(v).get("text"), str)]
    text = "".join(texts) if texts else (as_str(output.get("text")) or json_text(tool.get("output")))
    error = output.get("is_error")
    return base.canonical_response(
        as_str(tool.get("name")) or recall_call(ctx.state, call_id),
        call_id,
        text,
        tool_error=error if isinstance(error, bool) else None,
    )


class ForgeAdapter(TaggedAdapter):
    """Normalize Forge conversation snapshots."""

    harness = "forge"
    kinds = {CONVERSATION_RECORD: _conversation}
    untagged = "not a Forge conversation record"
