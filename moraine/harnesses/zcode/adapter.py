"""ZCode (source ``zcode``): session snapshots read from its SQLite store -> normalized events.

Snapshots come from ``reader.ZCodeReader``: ``{record: "zcode_session", session: {id, directory, title,
time_created}, messages: [{id, time_created, data: {role, model...}, parts: [blocks]}], unsettled}``. Parts are
Anthropic-style blocks (``text``, ``thinking``/``reasoning``, ``tool_use``, ``tool_result``) or OpenCode-style
``tool`` parts (``tool``, ``callID``, ``state: {input, output, error}``), which hold a call and its result. The
model is the message's ``modelID``, ``model_id`` or ``model`` (a name or ``{modelID, id, name}``). The state
remembers, per session, how many messages were emitted; an unsettled snapshot holds its last message back.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses.zcode.reader import SESSION_RECORD
from moraine.harnesses._shared.content_blocks import Blocks, message_events
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harnesses._shared.snapshot import Conversation, read_new_messages
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, read_timestamp
from moraine.harness_api.model import Emitted

__all__ = ["ZCodeAdapter"]

_SPELLING = ("ZCode", "session", ("id", "title", "directory", "time_created"))
_BLOCKS = Blocks(id_keys=("id", "tool_use_id", "toolUseID", "tool_call_id", "callID", "callId"))


def _session(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    """Return the not-yet-emitted events and session metadata of one session snapshot."""
    return read_new_messages(
        data, ctx.state, _SPELLING, lambda session, message, out: _message(session, message, out, ctx)
    )


def _message(
    session: Conversation, message: dict[str, Any], out: list[Emitted], ctx: StreamContext
) -> list[Emitted]:
    data = as_dict(message.get("data"))
    base = RecordEvents(session.session, read_timestamp(message.get("time_created"), out), session.cwd)
    base.provenance = {"message_id": message.get("id")}
    content = [block for part in as_list(message.get("parts")) for block in _blocks(as_dict(part))]
    said = {"role": str(data.get("role")).lower(), "content": content}
    return message_events(said, _BLOCKS, base, _model(data), ctx.state)


def _blocks(part: dict[str, Any]) -> list[dict[str, Any]]:
    """Return a part as content blocks: an OpenCode-style tool part becomes its call and, once ended, its result."""
    if part.get("type") != "tool":
        return [part]
    state = as_dict(part.get("state"))
    call_id = as_str(part.get("callID")) or as_str(part.get("id"))
    name = as_str(part.get("tool")) or as_str(part.get("name"))
    blocks = [
        {"type": "tool_use", "id": call_id, "name": name, "input": state.get("input", part.get("input"))}
    ]
    if "output" in state or "error" in state:
        failed = "error" in state and "output" not in state
        result = state.get("error") if failed else state.get("output")
        blocks.append(
            {
                "type": "tool_result",
                "tool_use_id": call_id,
                "name": name,
                "content": result,
                "is_error": failed,
            }
        )
    return blocks


def _model(data: dict[str, Any]) -> str | None:
    model = data.get("model")
    nested = as_dict(model)
    return (
        as_str(data.get("modelID"))
        or as_str(data.get("model_id"))
        or as_str(nested.get("modelID"))
        or as_str(nested.get("id"))
        or as_str(nested.get("name"))
        or as_str(model)
    )


class ZCodeAdapter(TaggedAdapter):
    """Normalize ZCode session snapshots."""

    harness = "zcode"
    kinds = {SESSION_RECORD: _session}
    untagged = "not a ZCode session record"
