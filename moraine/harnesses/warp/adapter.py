"""Warp (source ``warp``): agent conversations read from its SQLite store -> the user's queries.

Snapshots come from ``reader.WarpReader``. Each exchange's query text (``input[0].Query.text``) is a user input
opening a turn, with the exchange's model and working directory; Warp keeps the agent's replies and tool calls on
its servers, so turns have no answer here and no file touches.
"""

from __future__ import annotations

import json
from typing import Any

from moraine.harnesses.warp.reader import CONVERSATION_RECORD
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harnesses._shared.snapshot import Conversation, read_new_messages
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, read_timestamp
from moraine.harness_api.model import Emitted, EventType

__all__ = ["WarpAdapter"]

_SPELLING = ("Warp", "conversation", ("id", "title", "cwd", "started"))


def _conversation(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    """Return the queries of one conversation snapshot not emitted yet."""
    return read_new_messages(data, ctx.state, _SPELLING, _query)


def _query(conversation: Conversation, query: dict[str, Any], out: list[Emitted]) -> list[Emitted]:
    text = _query_text(query.get("input"))
    if not text:
        return []
    cwd = as_str(query.get("working_directory")) or conversation.cwd
    base = RecordEvents(conversation.session, read_timestamp(query.get("start_ts"), out), cwd)
    base.provenance = {"exchange_id": query.get("exchange_id"), "output_status": query.get("output_status")}
    model = as_str(query.get("model_id"))
    return [base.event(EventType.USER_INPUT, text=text, starts_turn=True, provenance={"model": model})]


def _query_text(raw: Any) -> str:
    try:
        items = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        return ""
    first = as_dict(next(iter(as_list(items)), None))
    return (as_str(as_dict(first.get("Query")).get("text")) or "").strip()


class WarpAdapter(TaggedAdapter):
    """Normalize Warp agent conversations."""

    harness = "warp"
    kinds = {CONVERSATION_RECORD: _conversation}
    untagged = "not a Warp conversation record"
