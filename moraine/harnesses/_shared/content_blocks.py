"""Messages whose content is a list of typed blocks (text, thinking, tool_use, tool_result) -> events.

Shared by the harnesses that keep a conversation as ``{role, content: [blocks]}`` in the Anthropic manner (DeepSeek
TUI, Cortex Code, ...). ``Blocks`` says how one harness spells them: where a tool call's or result's fields sit (in
the block itself, or nested under ``tool_use``/``tool_result``), and which of its keys carry the id, input (a JSON
string is parsed), output and error. ``message_events`` turns one user or assistant message into its events: a user message's texts are one
input (its tool results their responses), an assistant message's blocks become reasoning, text and tool calls in
order, and an assistant message calling no tool ends the turn with its last text as the answer.

Harnesses that walk the blocks themselves read one at a time: ``spoken_block`` a ``thinking`` or ``text`` block,
``block_call`` a ``tool_use`` block.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.events import RecordEvents, end_message
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, output_text, parse_json_string
from moraine.harness_api.model import Emitted, Event, EventType

__all__ = ["AI_SDK_BLOCKS", "Blocks", "block_call", "message_events", "spoken_block"]

_FAILED = frozenset({"error", "failed", "failure", "cancelled", "canceled", "denied", "rejected"})


def _plain(block: dict[str, Any]) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class Blocks:
    """How one harness spells its content blocks (see the module docstring)."""

    call_types: frozenset[str] = frozenset({"tool_use", "server_tool_use"})
    result_types: frozenset[str] = frozenset({"tool_result"})
    nested: bool = False  # a call's fields sit under block["tool_use"], a result's under block["tool_result"]
    id_keys: Sequence[str] = ("id", "tool_use_id", "toolUseID")
    name_keys: Sequence[str] = ("name", "tool_name", "toolName")
    input_keys: Sequence[str] = ("input", "parameters", "arguments")
    output_keys: Sequence[str] = ("content", "result", "output")
    error_keys: Sequence[str] = ("is_error", "isError")
    internal: Callable[[dict[str, Any]], bool] = _plain  # a text block the harness injected, not the user's

    def payload(self, block: dict[str, Any], kind: str) -> dict[str, Any]:
        """Return the object holding a call's or result's fields."""
        return as_dict(block.get(kind)) if self.nested else block

    def first(self, payload: dict[str, Any], keys: Sequence[str]) -> Any:
        """Return the value of the first of ``keys`` present in ``payload``."""
        return next((payload[key] for key in keys if key in payload), None)


# The Vercel AI SDK's spelling (``tool-call``/``tool-result`` with ``toolCallId``, ``toolName``, ``input`` and a typed
# ``output``), which several TypeScript agents record; Anthropic's spelling is accepted beside it.
AI_SDK_BLOCKS = Blocks(
    call_types=frozenset({"tool-call", "tool_use"}),
    result_types=frozenset({"tool-result", "tool_result"}),
    id_keys=("toolCallId", "id", "tool_use_id"),
    output_keys=("output", "content", "result"),
)


def message_events(
    message: dict[str, Any], spelling: Blocks, base: RecordEvents, model: str | None, state: dict[str, Any]
) -> list[Emitted]:
    """Return the events of one user or assistant message (any other role yields nothing)."""
    role = message.get("role")
    content = message.get("content")
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else as_list(content)
    blocks = [block for block in blocks if isinstance(block, dict)]
    if role in ("user", "tool"):  # a tool message carries results only
        return _user(blocks, spelling, base, state)
    if role == "assistant":
        return end_message(_assistant(blocks, spelling, base, model, state))
    return []


def _user(
    blocks: list[dict[str, Any]], spelling: Blocks, base: RecordEvents, state: dict[str, Any]
) -> list[Emitted]:
    out: list[Emitted] = []
    texts: list[str] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            if spelling.internal(block):
                out.append(base.event(EventType.SYSTEM, text=block["text"], provenance={"internal": True}))
            else:
                texts.append(block["text"])
        elif kind in spelling.result_types:
            out.append(_result(spelling.payload(block, "tool_result"), spelling, base, state))
    text = "\n".join(t for t in texts if t.strip())
    if text:
        out.insert(0, base.event(EventType.USER_INPUT, text=text, starts_turn=True))
    return out


def _assistant(
    blocks: list[dict[str, Any]],
    spelling: Blocks,
    base: RecordEvents,
    model: str | None,
    state: dict[str, Any],
) -> list[Event]:
    events: list[Event] = []
    for block in blocks:
        kind = block.get("type")
        if kind in ("thinking", "reasoning"):
            text = as_str(block.get("thinking")) or as_str(block.get("text"))
            if text:
                events.append(base.reasoning(text, model))
        elif kind == "text" and isinstance(block.get("text"), str) and not spelling.internal(block):
            events.append(base.answer(block["text"], model))
        elif kind in spelling.call_types:
            call = spelling.payload(block, "tool_use")
            name = as_str(spelling.first(call, spelling.name_keys))
            arguments = parse_json_string(spelling.first(call, spelling.input_keys))
            call_id = as_str(spelling.first(call, spelling.id_keys))
            events.append(base.tool_call(name, call_id, arguments, model, calls=state))
        elif kind in spelling.result_types:
            events.append(_result(spelling.payload(block, "tool_result"), spelling, base, state))
    return events


def _result(result: dict[str, Any], spelling: Blocks, base: RecordEvents, state: dict[str, Any]) -> Event:
    call_id = as_str(spelling.first(result, spelling.id_keys))
    output = spelling.first(result, spelling.output_keys)
    if isinstance(output, dict) and "value" in output:  # a typed output: {type: "text" | "json", value}
        output = output["value"]
    error = spelling.first(result, spelling.error_keys)
    status = as_str(result.get("status"))
    failed = error if isinstance(error, bool) else (status.lower() in _FAILED if status else None)
    name = as_str(spelling.first(result, spelling.name_keys)) or recall_call(state, call_id)
    return base.canonical_response(
        name,
        call_id,
        output_text(output) if output is not None else "",
        tool_error=failed,
        provenance={"status": status} if status else {},
    )


def spoken_block(block: dict[str, Any], record: RecordEvents, model: str | None = None) -> Event | None:
    """Return the reasoning of a ``thinking`` block or the reply of a ``text`` block; None for anything else."""
    kind = block.get("type")
    if kind == "thinking" and as_str(block.get("thinking")):
        return record.reasoning(block["thinking"], model)
    if kind == "text" and as_str(block.get("text")):
        return record.answer(block["text"], model)
    return None


def block_call(block: dict[str, Any], record: RecordEvents, fallback_id: str | None = None) -> Event:
    """Return the call of a ``tool_use`` block: its ``input`` (else its ``raw_input`` JSON) and its id."""
    arguments = block.get("input")
    if arguments is None:
        arguments = parse_json_string(block.get("raw_input"))
    call_id = as_str(block.get("id")) or fallback_id
    return record.tool_call(as_str(block.get("name")), call_id, arguments)
